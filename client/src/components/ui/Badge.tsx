import type { ReactNode } from 'react';
import './ui.css';

/** A badge's colour: green, amber, red, blue or grey (ui.css). */
export type Tone = 'success' | 'warning' | 'danger' | 'info' | 'neutral';

export function Badge({ tone, children }: { tone: Tone; children: ReactNode }) {
  return <span className={`badge badge-${tone}`}>{children}</span>;
}
