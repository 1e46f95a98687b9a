import { useEffect, useId, useRef, useState, type FocusEvent, type FormEvent, type KeyboardEvent } from 'react';
import { useNavigate } from 'react-router-dom';
import { keepPreviousData } from '@tanstack/react-query';
import { SEARCH_QUERY_MAX } from '@auction/shared';
import { Icon } from '../../../components/ui/Icon';
import { lotPath, searchPath } from '../../../config/paths';
import { formatRupees } from '../../../lib/format';
import { useServerQuery } from '../../../lib/query';
import { lotSuggestionsOptions } from '../api/search-api';
import { lotLabel, priceOf } from '../model';
import './header-search.css';

/** How long typing must pause before the server is asked. */
export const SUGGEST_DEBOUNCE_MS = 200;

/**
 * The header's search box (the ARIA combobox pattern): typing asks the server for the best few lots
 * once the typing pauses (a request for older text is cancelled), ArrowUp/ArrowDown move through them,
 * Enter opens the one highlighted (or, with none, the Search page for the words), Escape closes. On a
 * phone it is a button that opens a search row under the header.
 */
export function HeaderSearch() {
  const navigate = useNavigate();
  const id = useId();
  const listId = `${id}-list`;
  const input = useRef<HTMLInputElement>(null);
  const toggleButton = useRef<HTMLButtonElement>(null);
  const [text, setText] = useState('');
  const [term, setTerm] = useState('');
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const [expanded, setExpanded] = useState(false);

  useEffect(() => {
    const timer = setTimeout(() => setTerm(text.trim()), SUGGEST_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [text]);

  const { data, status } = useServerQuery({ ...lotSuggestionsOptions(term), placeholderData: keepPreviousData }, { enabled: open && term !== '' });
  const lots = term === '' ? [] : (data ?? []);
  const words = text.trim();
  const showList = open && words !== '';
  // The options: each lot, then "See all results".
  const count = lots.length + 1;
  const activeIndex = showList && active < count ? active : -1;
  const optionId = (i: number) => `${id}-opt-${i}`;

  function close() {
    setOpen(false);
    setActive(-1);
  }

  function finish() {
    close();
    setText('');
    setTerm('');
    setExpanded(false);
    input.current?.blur();
  }

  function searchAll() {
    if (!words) return;
    finish();
    void navigate(searchPath(words));
  }

  function openLot(i: number) {
    const lot = lots[i];
    if (!lot) return;
    finish();
    void navigate(lotPath(lot.auction.id, lot.id));
  }

  function choose(i: number) {
    if (i < lots.length) openLot(i);
    else searchAll();
  }

  function onKeyDown(e: KeyboardEvent<HTMLInputElement>) {
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      if (!words) return;
      e.preventDefault();
      setOpen(true);
      const step = e.key === 'ArrowDown' ? 1 : -1;
      setActive((i) => {
        const from = showList && i < count ? i : -1;
        if (from === -1) return step === 1 ? 0 : count - 1;
        const next = from + step;
        return next < 0 || next >= count ? -1 : next;
      });
    } else if (e.key === 'Escape') {
      if (showList) {
        e.preventDefault();
        close();
      } else if (expanded) {
        // The row closes on a phone: the focus goes back to the button that opened it.
        e.preventDefault();
        setExpanded(false);
        toggleButton.current?.focus();
      } else if (text) {
        e.preventDefault();
        setText('');
      }
    }
  }

  function onSubmit(e: FormEvent) {
    e.preventDefault();
    if (activeIndex >= 0) choose(activeIndex);
    else searchAll();
  }

  function onBlur(e: FocusEvent<HTMLDivElement>) {
    if (e.currentTarget.contains(e.relatedTarget)) return;
    close();
    if (!text) setExpanded(false);
  }

  function toggle() {
    const next = !expanded;
    setExpanded(next);
    // The row is shown by this render: focus its field once it is there.
    if (next) setTimeout(() => input.current?.focus(), 0);
  }

  let note: string | null = null;
  if (showList && lots.length === 0) note = status === 'error' ? 'Suggestions could not be loaded' : term === words && status === 'success' ? 'No open lots match' : 'Searching…';

  return (
    <div className={`header-search${expanded ? ' header-search-open' : ''}`} onBlur={onBlur}>
      <button ref={toggleButton} type="button" className="icon-btn header-search-toggle" aria-label={expanded ? 'Close search' : 'Search lots'} aria-expanded={expanded} onClick={toggle}>
        <Icon name={expanded ? 'close' : 'search'} size={18} />
      </button>
      <form className="header-search-form" role="search" aria-label="Search lots" onSubmit={onSubmit}>
        <Icon name="search" size={16} />
        <input
          ref={input}
          className="header-search-input"
          type="text"
          role="combobox"
          aria-label="Search lots"
          aria-autocomplete="list"
          aria-expanded={showList}
          aria-controls={listId}
          aria-activedescendant={activeIndex >= 0 ? optionId(activeIndex) : undefined}
          autoComplete="off"
          spellCheck={false}
          placeholder="Search lots"
          maxLength={SEARCH_QUERY_MAX}
          value={text}
          onChange={(e) => {
            setText(e.target.value);
            setOpen(true);
            setActive(-1);
          }}
          onFocus={() => setOpen(true)}
          onKeyDown={onKeyDown}
        />
        <div className="header-search-panel" hidden={!showList}>
          <ul id={listId} role="listbox" aria-label="Suggested lots" className="header-search-list">
            {showList && lots.map((lot, i) => {
              const price = priceOf(lot);
              const label = lotLabel(lot);
              return (
                <li
                  key={lot.id} id={optionId(i)} role="option" aria-selected={i === activeIndex}
                  className={`header-search-option${i === activeIndex ? ' is-active' : ''}`}
                  onMouseDown={(e) => e.preventDefault()} onClick={() => openLot(i)} onMouseMove={() => setActive(i)}
                >
                  {label && <span className="header-search-lot">{label}</span>}
                  <span className="header-search-name">{lot.name}</span>
                  <span className="header-search-price">{formatRupees(price.amount)}</span>
                </li>
              );
            })}
            {showList && (
              <li
                id={optionId(lots.length)} role="option" aria-selected={activeIndex === lots.length}
                className={`header-search-option header-search-all${activeIndex === lots.length ? ' is-active' : ''}`}
                onMouseDown={(e) => e.preventDefault()} onClick={searchAll} onMouseMove={() => setActive(lots.length)}
              >
                See all results for “{words}”
              </li>
            )}
          </ul>
          {note && <p className="header-search-note">{note}</p>}
        </div>
      </form>
      <span className="visually-hidden" aria-live="polite">
        {showList && term === words && status === 'success' ? `${lots.length} ${lots.length === 1 ? 'suggestion' : 'suggestions'}` : ''}
      </span>
    </div>
  );
}
