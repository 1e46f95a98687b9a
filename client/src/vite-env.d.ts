/// <reference types="vite/client" />

interface ImportMetaEnv {
  /** Base URL of the API, `/api` when unset (a separately hosted client points it at the server). */
  readonly VITE_API_BASE?: string;
}
