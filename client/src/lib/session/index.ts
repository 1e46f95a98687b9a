// The signed-in user or admin: infrastructure every feature may read.
export { useSession } from './session-store';
export type { SessionState } from './session-store';
export { afterSignIn, returnPath, signInToContinue, useSignInToContinue } from './return-to';
export type { ReturnState } from './return-to';
