import { DownOutlined } from '@ant-design/icons';
import { useEffect, useId, useRef, useState } from 'react';
import type { KeyboardEvent } from 'react';

/**
 * A select in plain markup, drawn as antd's Select is (styles.css, `.fv-select`): the WAI-ARIA select-only
 * combobox (a focusable combobox that opens a listbox), so it is driven as antd's is, by pointer or keys.
 * Not a native <select>: its options cannot be clicked as elements of the page, which the search settings'
 * users (and their tests) do.
 */
export function PlainSelect<T extends string>({
  value,
  options,
  onChange,
  className,
  'aria-label': label,
}: {
  value: T;
  options: readonly { value: T; label: string }[];
  onChange: (value: T) => void;
  className?: string;
  'aria-label': string;
}) {
  const id = useId();
  const root = useRef<HTMLDivElement>(null);
  const [open, setOpen] = useState(false);
  const selected = Math.max(
    0,
    options.findIndex((o) => o.value === value),
  );
  const [active, setActive] = useState(selected);

  // A press anywhere else closes the list, as a native select's does.
  useEffect(() => {
    if (!open) return;
    const away = (event: PointerEvent) => {
      if (!root.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('pointerdown', away);
    return () => document.removeEventListener('pointerdown', away);
  }, [open]);

  const show = () => {
    setActive(selected);
    setOpen(true);
  };
  const choose = (index: number) => {
    setOpen(false);
    if (options[index].value !== value) onChange(options[index].value);
  };

  const onKeyDown = (event: KeyboardEvent) => {
    const last = options.length - 1;
    const keys: Record<string, () => void> = {
      ArrowDown: () => (open ? setActive((a) => Math.min(last, a + 1)) : show()),
      ArrowUp: () => (open ? setActive((a) => Math.max(0, a - 1)) : show()),
      Home: () => open && setActive(0),
      End: () => open && setActive(last),
      Enter: () => (open ? choose(active) : show()),
      ' ': () => (open ? choose(active) : show()),
      Escape: () => setOpen(false),
    };
    if (event.key === 'Tab' && open) return choose(active);
    const handle = keys[event.key];
    if (!handle || (event.key === 'Escape' && !open)) return;
    event.preventDefault();
    handle();
  };

  return (
    <div ref={root} className={['fv-select', open && 'fv-select-open', className].filter(Boolean).join(' ')}>
      <div
        role="combobox"
        tabIndex={0}
        aria-label={label}
        aria-haspopup="listbox"
        aria-expanded={open}
        aria-controls={`${id}list`}
        aria-activedescendant={open ? `${id}${active}` : undefined}
        className="fv-select-box"
        onClick={() => (open ? setOpen(false) : show())}
        onKeyDown={onKeyDown}
      >
        <span className="fv-select-value" title={options[selected]?.label}>
          {options[selected]?.label}
        </span>
        <DownOutlined aria-hidden="true" className="fv-select-arrow" />
      </div>
      <ul role="listbox" id={`${id}list`} aria-label={label} className="fv-select-list" hidden={!open}>
        {options.map((option, index) => (
          <li
            key={option.value}
            id={`${id}${index}`}
            role="option"
            aria-selected={index === selected}
            title={option.label}
            className={index === active ? 'fv-select-active' : undefined}
            // Keeps the focus on the combobox, so the keys go on working after a click.
            onPointerDown={(event) => event.preventDefault()}
            onPointerEnter={() => setActive(index)}
            onClick={() => choose(index)}
          >
            {option.label}
          </li>
        ))}
      </ul>
    </div>
  );
}
