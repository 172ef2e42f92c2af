/**
 * The list of games (firmware/ui/games.ts) is all a new game needs beyond its rules and its screen: a
 * bundle built with Tally (test/registry/tally: a core module, a screen, a list with one more entry)
 * offers it on the menu, plays it through keys and LEDs, saves it and resumes it after a power cut; and the
 * page's status says what it shows from Tally's own status entry (tally/status.ts), handed to the reader.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildFirmware } from "../../firmware/tools/build.ts";
import { VirtualBoard } from "../../sim/board/board.ts";
import { GAMES } from "../../firmware/ui/games.ts";
import type { SavedState } from "../../firmware/ui/game.ts";
import { GAME_STATUSES, StatusReader } from "../../sim/views/status.ts";
import { TALLY_STATUS } from "./tally/status.ts";

const GAMES_WITH_TALLY = fileURLToPath(new URL("./tally/games.ts", import.meta.url));
const dir = mkdtempSync(join(tmpdir(), "brainboard-tally-"));
let firmware = "";

beforeAll(async () => {
  firmware = (await buildFirmware({ games: GAMES_WITH_TALLY, out: join(dir, "firmware.js") })).code;
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function boot(): VirtualBoard {
  const board = new VirtualBoard({ firmware });
  board.powerOn();
  board.advance(200);
  return board;
}

/** The pad's LEDs at grid positions (reading order). */
function pad(board: VirtualBoard, ...positions: number[]): string[] {
  const c = board.colours("pad");
  return positions.map((g) => c[g]);
}

describe("a game added through the list of games alone", () => {
  it("is offered on the menu's first row after the built-in ones, and OK starts it", () => {
    const board = boot();
    // Brainiac (chosen: white), travel, race, Brain Flip, then Tally.
    expect(pad(board, 0, 1, 2, 3, 4)).toEqual(["white", "yellow", "yellow", "yellow", "yellow"]);
    board.tap("p15");
    expect(pad(board, 0, 4)).toEqual(["yellow", "white"]);
    board.tap("p66");
    // Tally's screen: the counting key green, five white holes on row 2, the menu key blue.
    expect(pad(board, 0, 6, 7, 8, 9, 10, 30)).toEqual(["green", "white", "white", "white", "white", "white", "blue"]);
  });

  it("is played through keys and LEDs, saved at every press and resumed after a power cut", () => {
    const board = boot();
    board.tap("p15");
    board.tap("p66");
    board.tap("p11");
    board.tap("p11");
    board.tap("p11");
    expect(pad(board, 6, 7, 8, 9, 10)).toEqual(["green", "green", "green", "white", "white"]);
    board.advance(500);
    board.powerCycle();
    board.advance(300);
    // Resumed on its own screen with its count.
    expect(pad(board, 6, 7, 8, 9, 10, 30)).toEqual(["green", "green", "green", "white", "white", "blue"]);
    board.tap("p11");
    board.tap("p11");
    // Over at five: the counting key dark, OK lit; a sixth press is refused and changes nothing.
    expect(pad(board, 0, 10, 35)).toEqual(["off", "green", "green"]);
    board.tap("p11");
    expect(pad(board, 10, 35)).toEqual(["green", "green"]);
    // OK goes back to the menu, with Tally still chosen.
    board.tap("p66");
    expect(pad(board, 0, 4)).toEqual(["yellow", "white"]);
  });

  it("leaves the built-in games as they were: a Brainiac match against the unit still starts from the same menu", () => {
    const board = boot();
    // Roles: the unit makes the secret (row 3, third key); then OK, and the unit's secret is made in the background.
    board.tap("p33");
    board.tap("p66");
    board.advance(1000);
    // The codebreaker's pad: six colour keys, OK green.
    expect(pad(board, 0, 5, 35)).toEqual(["red", "orange", "green"]);
  });
});

describe("a game added to the list has a status on the page from its own entry", () => {
  it("the menu names it and its settings, and its screen says the count and what to do next", () => {
    const board = boot();
    const reader = new StatusReader(board, [...GAME_STATUSES, TALLY_STATUS]);
    board.tap("p15");
    let s = reader.status();
    expect(s.screen).toBe("menu");
    expect(s.game).toBe("Tally, counting to 5 together");
    expect(s.line).toMatch(/^Menu: Tally, counting to 5 together\. Each pad row is one setting \(row 1 the game, row 5 brightness\)/);
    board.tap("p66");
    board.tap("p11");
    board.tap("p11");
    s = reader.status();
    expect(s.screen).toBe("tally");
    expect(s.line).toBe("Tally: 2 of 5 counted; the green key counts one more.");
    expect(s.facts).toEqual([{ label: "count", value: "2 of 5" }]);
    expect(s.board.about).toMatch(/^Tally: the board of \d+ × \d+ is not used$/);
    // Back on the menu, a game it can resume: OK asks twice, and its numbers show.
    board.tap("p61");
    s = reader.status();
    expect(s.screen).toBe("menu");
    expect(s.line).toContain("a game is in progress");
    expect(s.line).toContain("resume (row 6, column 5, cyan) goes back to the game in progress");
    expect(s.facts).toEqual([{ label: "count", value: "2 of 5" }]);
  });
});

describe("the built-in games on the list", () => {
  it("save under their fields of the saved state (format 2's keys in the bundle: old saves still restore)", () => {
    const s = { v: 2, screen: "menu", settings: [], match: null, flip: null } as unknown as SavedState;
    GAMES.forEach((g, i) => g.putState(s, i));
    expect([s.match, s.flip]).toEqual([0, 1]);
    expect(GAMES.map((g) => g.stateIn(s))).toEqual([0, 1]);
  });
});
