import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { tabId, Tabs, type TabItem } from './Tabs';

type Key = 'one' | 'two' | 'three';
const TABS: TabItem<Key>[] = [
  { key: 'one', label: 'One', count: 4 },
  { key: 'two', label: 'Two', count: 0 },
  { key: 'three', label: 'Three' },
];

/** A page in miniature: the strip plus the one panel it controls. */
function Harness({ initial = 'one', onChange }: { initial?: Key; onChange?: (key: Key) => void }) {
  const [value, setValue] = useState<Key>(initial);
  return (
    <>
      <Tabs
        tabs={TABS}
        value={value}
        onChange={(key) => { onChange?.(key); setValue(key); }}
        idPrefix="demo-tab"
        label="Demo"
        panelId="demo-panel"
      />
      <div id="demo-panel" role="tabpanel" aria-labelledby={tabId('demo-tab', value)}>Panel {value}</div>
    </>
  );
}

const tab = (name: RegExp) => screen.getByRole('tab', { name });
const selected = () => screen.getAllByRole('tab').filter((t) => t.getAttribute('aria-selected') === 'true').map((t) => t.id);
const focusable = () => screen.getAllByRole('tab').filter((t) => t.tabIndex === 0).map((t) => t.id);

describe('Tabs', () => {
  afterEach(cleanup);

  it('renders a labelled tablist whose tabs control the panel that names the selected tab', () => {
    render(<Harness />);
    expect(screen.getByRole('tablist', { name: 'Demo' })).toBeTruthy();
    expect(screen.getAllByRole('tab').map((t) => t.id)).toEqual(['demo-tab-one', 'demo-tab-two', 'demo-tab-three']);
    for (const t of screen.getAllByRole('tab')) {
      expect(t.getAttribute('aria-controls')).toBe('demo-panel');
      expect(t.getAttribute('type')).toBe('button');
    }
    expect(selected()).toEqual(['demo-tab-one']);
    expect(focusable()).toEqual(['demo-tab-one']);
    expect(screen.getByRole('tabpanel', { name: /One/ }).textContent).toBe('Panel one');
  });

  it('shows a count badge only where one is given, zero included, inside the tab', () => {
    render(<Harness />);
    expect(tab(/One/).querySelector('.tab-count')?.textContent).toBe('4');
    expect(tab(/Two/).querySelector('.tab-count')?.textContent).toBe('0');
    expect(tab(/Three/).querySelector('.tab-count')).toBeNull();
    expect(tab(/Three/).textContent).toBe('Three');
  });

  it('selects a tab on click and moves the roving tabIndex with it', () => {
    const onChange = vi.fn();
    render(<Harness onChange={onChange} />);
    fireEvent.click(tab(/Three/));
    expect(onChange).toHaveBeenCalledWith('three');
    expect(selected()).toEqual(['demo-tab-three']);
    expect(focusable()).toEqual(['demo-tab-three']);
    expect(screen.getByRole('tabpanel').getAttribute('aria-labelledby')).toBe('demo-tab-three');
  });

  it('moves selection and focus with the arrow keys, wrapping at both ends', () => {
    render(<Harness />);
    tab(/One/).focus();
    const press = (key: string) => fireEvent.keyDown(document.activeElement!, { key });

    press('ArrowRight');
    expect(document.activeElement?.id).toBe('demo-tab-two');
    expect(selected()).toEqual(['demo-tab-two']);
    press('ArrowRight');
    expect(document.activeElement?.id).toBe('demo-tab-three');
    press('ArrowRight');
    expect(document.activeElement?.id).toBe('demo-tab-one');
    press('ArrowLeft');
    expect(document.activeElement?.id).toBe('demo-tab-three');
    expect(selected()).toEqual(['demo-tab-three']);
    expect(focusable()).toEqual(['demo-tab-three']);
  });

  it('jumps to the first and last tab with Home and End', () => {
    render(<Harness initial="two" />);
    tab(/Two/).focus();
    fireEvent.keyDown(tab(/Two/), { key: 'End' });
    expect(document.activeElement?.id).toBe('demo-tab-three');
    expect(selected()).toEqual(['demo-tab-three']);
    fireEvent.keyDown(tab(/Three/), { key: 'Home' });
    expect(document.activeElement?.id).toBe('demo-tab-one');
    expect(selected()).toEqual(['demo-tab-one']);
  });

  it('leaves other keys alone and does not cancel them', () => {
    const onChange = vi.fn();
    render(<Harness onChange={onChange} />);
    tab(/One/).focus();
    expect(fireEvent.keyDown(tab(/One/), { key: 'ArrowDown' })).toBe(true);
    expect(fireEvent.keyDown(tab(/One/), { key: 'Tab' })).toBe(true);
    expect(fireEvent.keyDown(tab(/One/), { key: 'End' })).toBe(false);
    expect(onChange).toHaveBeenCalledTimes(1);
  });

  it('keeps the first tab reachable when the value names no tab', () => {
    render(<Tabs tabs={TABS} value={'none' as Key} onChange={() => {}} idPrefix="x" label="X" panelId="p" />);
    expect(selected()).toEqual([]);
    expect(focusable()).toEqual(['x-one']);
  });
});
