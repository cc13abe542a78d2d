import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { PlainSelect } from './plain-select';

const SORTS = [
  { value: 'popularity', label: 'Popularity' },
  { value: 'distance', label: 'Distance' },
] as const;

function Sort() {
  const [sort, setSort] = useState<'popularity' | 'distance'>('popularity');
  return (
    <>
      <PlainSelect value={sort} onChange={setSort} options={SORTS} aria-label="Sort By" />
      <output>{sort}</output>
      <button type="button">elsewhere</button>
    </>
  );
}

const combobox = () => screen.getByRole('combobox', { name: 'Sort By' });
const chosen = () => screen.getByRole('status').textContent;

describe('PlainSelect', () => {
  afterEach(cleanup);

  it('opens on a click and takes the option clicked', () => {
    render(<Sort />);
    expect(combobox().getAttribute('aria-expanded')).toBe('false');
    expect(screen.queryByRole('listbox')).toBeNull();
    fireEvent.click(combobox());
    expect(combobox().getAttribute('aria-expanded')).toBe('true');
    fireEvent.click(screen.getByRole('option', { name: 'Distance' }));
    expect(chosen()).toBe('distance');
    expect(combobox().textContent).toBe('Distance');
    expect(combobox().getAttribute('aria-expanded')).toBe('false');
  });

  it('is driven by the keys of a select', () => {
    render(<Sort />);
    act(() => combobox().focus());
    fireEvent.keyDown(combobox(), { key: 'ArrowDown' });
    expect(combobox().getAttribute('aria-expanded')).toBe('true');
    const active = () => document.getElementById(combobox().getAttribute('aria-activedescendant') ?? '');
    expect(active()?.textContent).toBe('Popularity');
    fireEvent.keyDown(combobox(), { key: 'ArrowDown' });
    expect(active()?.textContent).toBe('Distance');
    fireEvent.keyDown(combobox(), { key: 'Enter' });
    expect(chosen()).toBe('distance');
    // Escape closes without choosing.
    fireEvent.keyDown(combobox(), { key: ' ' });
    fireEvent.keyDown(combobox(), { key: 'Home' });
    fireEvent.keyDown(combobox(), { key: 'Escape' });
    expect(combobox().getAttribute('aria-expanded')).toBe('false');
    expect(chosen()).toBe('distance');
  });

  it('closes, choosing nothing, on a press elsewhere', () => {
    render(<Sort />);
    fireEvent.click(combobox());
    fireEvent.pointerDown(screen.getByRole('button', { name: 'elsewhere' }));
    expect(combobox().getAttribute('aria-expanded')).toBe('false');
    expect(chosen()).toBe('popularity');
  });
});
