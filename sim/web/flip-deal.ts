/** Brain Flip's cards on the web server: the pictures dealt for each game the firmware starts, and which lie on the pad now. */
import { readFileSync, writeFileSync } from "node:fs";
import type { VirtualBoard } from "../board/board.ts";
import type { EspruinoBoard } from "../espruino/engine.ts";
import { padShowsCards, PictureDeal, PICTURES, readSaved, type Deal } from "../views/pictures.ts";
import { Prng } from "../../firmware/tools/prng.ts";
import { G_OK } from "../../firmware/ui/layout.ts";
import type { FlipCards } from "./types.ts";

/** Longer than the dark part of a blink (the firmware's blinks are 400 ms on, 200 ms off). */
const BLINK_GAP_MS = 700;

/** The cards kept by an earlier run (see dealFile), or null when there are none or they are not valid. */
function readDeal(file: string): Deal | null {
  try {
    const d = JSON.parse(readFileSync(file, "utf8")) as Deal;
    const ids = d.pictures;
    const valid =
      Number.isInteger(d.game) &&
      Number.isInteger(d.grid) &&
      Array.isArray(ids) &&
      ids.length === d.grid * d.grid &&
      new Set(ids).size === ids.length &&
      ids.every((id) => Number.isInteger(id) && id >= 0 && id < PICTURES.length);
    return valid ? { game: d.game, grid: d.grid, pictures: ids } : null;
  } catch {
    return null;
  }
}

/**
 * A new deal for every Brain Flip game the firmware starts (seen in its saves), kept in a file beside the
 * unit's Storage so that a game's cards survive restarting the simulator too.
 */
export class FlipDeal {
  private readonly deal: PictureDeal;
  private readonly dealFile: string | undefined;
  /** When each pad LED last showed green: the Master's card blinks green, and between blinks it is not out. */
  private readonly greenAt = new Map<number, number>();
  private savedText: string | undefined;
  /** Stops following the saves. */
  readonly stop: () => void;

  constructor(
    private readonly board: VirtualBoard | EspruinoBoard,
    seed: number | undefined,
    storageFile: string | undefined,
    onChange: () => void,
  ) {
    this.dealFile = storageFile ? storageFile.replace(/\.json$/i, "") + ".pictures.json" : undefined;
    this.deal = new PictureDeal((game) => {
      if (seed === undefined) return Math.random;
      const prng = new Prng((Math.imul(seed + 1, 0x9e3779b1) + game * 0x85ebca6b) >>> 0);
      return () => prng.next();
    });
    const atStart = readSaved(board.storage);
    this.deal.start(atStart?.saved ?? null, this.dealFile ? readDeal(this.dealFile) : null);
    this.savedText = atStart?.text;
    const okKey = board.profile.keymap.grid[G_OK];
    this.stop = board.storage.onChange(() => {
      const latest = readSaved(board.storage);
      if (!latest || latest.text === this.savedText) return;
      this.savedText = latest.text;
      if (this.deal.saw(latest.saved, board.isPressed(okKey)) && this.dealFile) {
        try {
          writeFileSync(this.dealFile, JSON.stringify(this.deal.deal) + "\n");
        } catch {
          // not writable: the cards then last as long as this simulator runs
        }
      }
      onChange();
    });
    board.on("leds", () => {
      board.colours("pad").forEach((c, i) => {
        if (c === "green") this.greenAt.set(i, board.now);
        else if (c !== "off") this.greenAt.delete(i);
      });
    });
  }

  /** The current (or latest) game's pictures, null before the first. */
  get current(): Deal | null {
    return this.deal.deal;
  }

  /** The cards, while the Brain Flip screen shows on the unit. */
  cards(): FlipCards | null {
    const { board } = this;
    const d = this.deal.deal;
    const pad = board.colours("pad");
    if (!d || this.deal.screen !== "flip" || !board.isOn || !padShowsCards(pad, d.grid)) return null;
    let picked = -1;
    for (let c = 0; c < d.grid * d.grid; c++) {
      const at = this.greenAt.get(Math.floor(c / d.grid) * 6 + (c % d.grid));
      if (at !== undefined && at >= board.now - BLINK_GAP_MS) picked = c;
    }
    return { game: d.game, grid: d.grid, pictures: d.pictures.slice(), picked };
  }
}
