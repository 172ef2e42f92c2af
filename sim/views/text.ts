/**
 * The board as text, for the command line: every segment as colour initials (see COLOUR_INITIALS),
 * laid out like the unit, board row 1 at the bottom. The secret stays hidden unless asked for.
 */
import type { LedBoard } from "./view.ts";
import { colourInitial, INITIALS_LEGEND, screenViews, type ScreenPixel } from "./view.ts";

export interface TextOptions {
  /** Print the secret segment (default: hidden, as under the shield). */
  showSecret?: boolean;
  /** Colour each initial with its LED's screen colour (ANSI truecolor). */
  colour?: boolean;
  /** A heading for this picture (e.g. "show at line 12"). */
  title?: string;
}

export function formatBoard(board: LedBoard, opts: TextOptions = {}): string {
  const p = board.profile;
  const views = screenViews(board);
  const paint = (px: ScreenPixel) => {
    const ch = colourInitial(px.name);
    if (!opts.colour) return ch;
    if (px.name === "off") return `\x1b[90m${ch}\x1b[0m`;
    const [r, g, b] = px.screen;
    return `\x1b[1;38;2;${r};${g};${b}m${ch}\x1b[0m`;
  };
  const run = (pxs: ScreenPixel[]) => pxs.map(paint).join(" ");
  const label = (s: string) => s.padEnd(9);
  const lines: string[] = [];
  const tone = board.tone;
  const bat = board.battery;
  lines.push(
    `${opts.title ? `${opts.title}: ` : ""}${p.name} (${p.id})  t=${(board.now / 1000).toFixed(3)}s  power ${board.isOn ? "on" : "off"}` +
      `  battery ${bat.volts.toFixed(2)} V${bat.usb ? " + USB" : ""}  tone ${tone ? `${tone.freq} Hz` : "silent"}`,
  );
  if (views.secret)
    lines.push(label("secret") + (opts.showSecret ? run(views.secret) : "(hidden under the codemaker's shield; --show-secret shows it)"));
  if (views.track) {
    const t = views.track;
    const half = Math.ceil(t.length / 2);
    lines.push(label("track") + run(t.slice(0, half)) + "  |  " + run(t.slice(half)));
  }
  const pegs = p.pegs;
  lines.push(label("") + "board".padEnd(pegs * 2 + 2) + "keys");
  for (let r = p.rows; r >= 1; r--) {
    const rowPx = views.board.slice((r - 1) * pegs, r * pegs);
    const keyPx = views.keys.slice((r - 1) * pegs, r * pegs);
    lines.push(label(`row ${String(r).padStart(2)}`) + run(rowPx) + "   " + run(keyPx));
  }
  if (views.status) lines.push(label("status") + run(views.status));
  const pad = views.pad;
  for (let r = 0; r < 6; r++) lines.push(label(r === 0 ? "pad" : "") + run(pad.slice(r * 6, r * 6 + 6)));
  lines.push(label("") + INITIALS_LEGEND);
  return lines.join("\n");
}
