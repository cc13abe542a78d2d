import { placeTypeLabel } from '@forkvote/contracts';

/** Warm food colours: tomato, saffron, basil, aubergine, teal, paprika. */
const HUES = [8, 36, 96, 280, 180, 20, 48, 330];

/**
 * The demo catalogue's "photo": an illustration drawn for the place (a plate, a fork and a knife on a
 * tablecloth in a colour of its own), so offline runs show what a card with a photo looks like. No script,
 * no external reference: the gateway serves it with a CSP that allows neither.
 */
export function demoPhotoSvg(type: string, seed: number): string {
  const hue = HUES[seed % HUES.length];
  const tilt = (seed % 7) * 4 - 12;
  const label = placeTypeLabel(type).replace(/[<>&"']/g, '');
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 400 240" width="400" height="240">
<defs>
<linearGradient id="bg" x1="0" y1="0" x2="1" y2="1">
<stop offset="0" stop-color="hsl(${hue} 70% 62%)"/><stop offset="1" stop-color="hsl(${(hue + 24) % 360} 65% 42%)"/>
</linearGradient>
<pattern id="cloth" width="24" height="24" patternUnits="userSpaceOnUse">
<rect width="12" height="12" fill="rgba(255,255,255,0.10)"/><rect x="12" y="12" width="12" height="12" fill="rgba(255,255,255,0.10)"/>
</pattern>
</defs>
<rect width="400" height="240" fill="url(#bg)"/>
<rect width="400" height="240" fill="url(#cloth)"/>
<g transform="rotate(${tilt} 200 112)">
<circle cx="200" cy="112" r="70" fill="#fdfbf7" stroke="rgba(0,0,0,0.12)" stroke-width="3"/>
<circle cx="200" cy="112" r="50" fill="none" stroke="rgba(0,0,0,0.08)" stroke-width="2"/>
<g fill="#f4f1ea" stroke="rgba(0,0,0,0.18)" stroke-width="1.5">
<rect x="104" y="56" width="8" height="112" rx="4"/>
<rect x="96" y="46" width="4" height="34" rx="2"/><rect x="106" y="46" width="4" height="34" rx="2"/><rect x="116" y="46" width="4" height="34" rx="2"/>
<path d="M292 46 C306 62 306 96 296 108 L296 168 L288 168 L288 46 Z"/>
</g>
</g>
<rect x="0" y="204" width="400" height="36" fill="rgba(0,0,0,0.28)"/>
<text x="16" y="228" font-family="system-ui, sans-serif" font-size="16" fill="#fff">${label} · demo photo</text>
</svg>`;
}
