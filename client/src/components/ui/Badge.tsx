import type { ReactNode } from 'react';
import type { Tone } from '../../lib/format';
import './ui.css';

export function Badge({ tone, children }: { tone: Tone; children: ReactNode }) {
  return <span className={`badge badge-${tone}`}>{children}</span>;
}
