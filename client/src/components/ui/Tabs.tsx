import { useRef, type KeyboardEvent } from 'react';
import './ui.css';

export interface TabItem<K extends string> {
  key: K;
  label: string;
  /** A small badge after the label; part of the tab's accessible name. */
  count?: number;
}

interface TabsProps<K extends string> {
  tabs: readonly TabItem<K>[];
  value: K;
  onChange: (key: K) => void;
  /** Each tab's id is `${idPrefix}-${key}`, for the panel's aria-labelledby (see tabId). */
  idPrefix: string;
  /** The tablist's aria-label. */
  label: string;
  /** The id of the one tabpanel all tabs control. */
  panelId: string;
  /** Extra classes on the tablist, for the page's own placement. */
  className?: string;
}

export const tabId = (idPrefix: string, key: string) => `${idPrefix}-${key}`;

/**
 * An accessible tab strip (WAI-ARIA tabs, automatic activation): one tab in the Tab order, and
 * ArrowLeft/ArrowRight (wrapping), Home and End select a tab and move focus to it.
 */
export function Tabs<K extends string>({ tabs, value, onChange, idPrefix, label, panelId, className }: TabsProps<K>) {
  const buttons = useRef<(HTMLButtonElement | null)[]>([]);
  // If value names no tab, the first still takes focus so the strip stays reachable by keyboard.
  const focusable = Math.max(0, tabs.findIndex((t) => t.key === value));

  function onKeyDown(e: KeyboardEvent<HTMLButtonElement>, index: number) {
    const last = tabs.length - 1;
    const next =
      e.key === 'ArrowRight' ? (index === last ? 0 : index + 1)
        : e.key === 'ArrowLeft' ? (index === 0 ? last : index - 1)
          : e.key === 'Home' ? 0
            : e.key === 'End' ? last
              : null;
    const tab = next === null ? undefined : tabs[next];
    if (next === null || !tab) return;
    e.preventDefault();
    onChange(tab.key);
    buttons.current[next]?.focus();
  }

  return (
    <div className={className ? `tabs ${className}` : 'tabs'} role="tablist" aria-label={label}>
      {tabs.map((t, i) => (
        <button
          key={t.key}
          ref={(el) => { buttons.current[i] = el; }}
          id={tabId(idPrefix, t.key)}
          type="button"
          role="tab"
          className="tab"
          aria-selected={t.key === value}
          aria-controls={panelId}
          tabIndex={i === focusable ? 0 : -1}
          onClick={() => onChange(t.key)}
          onKeyDown={(e) => onKeyDown(e, i)}
        >
          {t.label}
          {t.count !== undefined && <span className="tab-count">{t.count}</span>}
        </button>
      ))}
    </div>
  );
}
