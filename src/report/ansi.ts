/**
 * Tiny ANSI SGR helpers for the `text` reporter: no dependency, and colour only when the caller asks for it.
 * Each helper resets only what it set (39 = default colour, 22 = normal intensity), so helpers nest.
 */

/** Colour functions; with `enabled` false each returns its input unchanged. */
export interface Palette {
  readonly red: (s: string) => string;
  readonly yellow: (s: string) => string;
  readonly green: (s: string) => string;
  readonly cyan: (s: string) => string;
  readonly bold: (s: string) => string;
  readonly dim: (s: string) => string;
}

const sgr = (open: number, close: number) => (s: string) => (s === '' ? s : `\x1b[${open}m${s}\x1b[${close}m`);
const plain = (s: string) => s;

/** The palette for `opts.color`: real escapes when enabled, identity functions otherwise. */
export function palette(enabled: boolean): Palette {
  if (!enabled) return { red: plain, yellow: plain, green: plain, cyan: plain, bold: plain, dim: plain };
  return {
    red: sgr(31, 39),
    yellow: sgr(33, 39),
    green: sgr(32, 39),
    cyan: sgr(36, 39),
    bold: sgr(1, 22),
    dim: sgr(2, 22),
  };
}
