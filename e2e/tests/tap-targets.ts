import type { Page } from '@playwright/test';

/**
 * Every visible control on the page smaller than a touch target: 44 × 44 px on a phone-wide page, 24 × 24
 * anywhere (WCAG 2.2, 2.5.8). A control is measured where it is tapped: a checkbox or radio by its label,
 * a field by the box around it. A link inside running text is exempt (2.5.8's inline exception).
 * A string, run by page.evaluate in the browser; answers "what, width × height" for each.
 */
export const SMALL_TAP_TARGETS = `(() => {
  const min = window.innerWidth <= 600 ? 44 : 24;
  const seen = new Set();
  const small = [];
  const controls = document.querySelectorAll(
    'a[href], button, input:not([type=hidden]), select, textarea, [role=button], [role=combobox], [role=switch], [role=tab], [role=checkbox], [role=radio]',
  );
  for (const control of controls) {
    const target = control.matches('input[type=checkbox], input[type=radio]')
      ? control.closest('label') || control
      : control.closest('.ant-input-affix-wrapper, .ant-input-number, .ant-select, .ant-picker') || control;
    if (seen.has(target)) continue;
    seen.add(target);
    if (target.closest('[aria-hidden=true], .fv-visually-hidden, [inert]')) continue;
    const box = target.getBoundingClientRect();
    const style = getComputedStyle(target);
    if (box.width === 0 || box.height === 0 || style.visibility === 'hidden' || style.opacity === '0') continue;
    const inText =
      target.tagName === 'A' &&
      style.display === 'inline' &&
      (target.parentElement.textContent || '').trim().length > (target.textContent || '').trim().length;
    if (inText) continue;
    if (box.width < min - 0.5 || box.height < min - 0.5) {
      const name = (target.getAttribute('aria-label') || target.textContent || target.getAttribute('name') || '').trim();
      small.push(target.tagName.toLowerCase() + ' "' + name.slice(0, 40) + '" ' + Math.round(box.width) + '×' + Math.round(box.height));
    }
  }
  return small;
})()`;

/** The controls on the page too small to tap, with the page's path. */
export async function smallTargets(page: Page): Promise<string[]> {
  const path = new URL(page.url()).pathname;
  return (await page.evaluate<string[]>(SMALL_TAP_TARGETS)).map((target) => `${path}: ${target}`);
}
