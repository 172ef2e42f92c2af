/**
 * Issue 7: bad saved data. Whatever the two save files hold (a corrupt or truncated copy, both bad, an
 * older format, random bytes, an empty file, or well-formed JSON of the wrong shape), the unit either
 * resumes the other, good copy, or starts afresh with a visible warning (status LED 2 yellow for about
 * 3 s after boot, and a console line "brainboard: save not used..."); it never crashes, shows
 * the menu and answers keys.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { VirtualBoard } from "../../sim/board/board.ts";
import { Prng } from "../../firmware/tools/prng.ts";
import { firmwareBundle, R1 } from "../device/helpers.ts";
import type { SavedState } from "../../firmware/ui/app.ts";
import { encodeSlot, readSavedState, SaveLog, SLOT_NAMES, type SlotCopy } from "./saved-state.ts";
import { boardFrame, expectedBootFrame, frameDiff } from "./frame.ts";
import { gridKey, Player, type Goal } from "./player.ts";
import { firmwareFailures } from "./invariants.ts";
import { G_OK } from "../../firmware/ui/layout.ts";
import { FLIP_ANSWER } from "../../firmware/core/brainflip.ts";

const CHECK_AT_MS = 200;

/** Plays `goal` on a fresh board until `until` says stop; returns the saves it made, oldest first. */
function playedSaves(goal: Goal, seed: number, until: (s: SavedState) => boolean): SlotCopy[] {
  const board = new VirtualBoard({ firmware: firmwareBundle(), seed });
  const log = new SaveLog(board);
  const player = new Player(R1, new Prng(seed), 0);
  const saves: SlotCopy[] = [];
  board.powerOn();
  board.advance(CHECK_AT_MS);
  for (let i = 0; i < 200; i++) {
    for (const k of player.next(readSavedState(board), goal).keys) board.tap(k, 30, 30);
    if (log.committed && saves.at(-1) !== log.committed) saves.push(log.committed);
    if (log.committed && until(log.committed.state)) return saves;
  }
  throw new Error(`${JSON.stringify(goal)} never reached the state wanted`);
}

/** A board, off, whose save files hold these texts (undefined: no file); then powered on and run to CHECK_AT_MS. */
function bootWith(slots: (string | undefined)[]): VirtualBoard {
  const board = new VirtualBoard({ firmware: firmwareBundle() });
  slots.forEach((text, i) => {
    // A save that does not fit beside the firmware would leave the unit nothing to refuse.
    if (text !== undefined && !board.storage.write(SLOT_NAMES[i], text)) throw new Error(`${SLOT_NAMES[i]} does not fit Storage`);
  });
  board.powerOn();
  board.advance(CHECK_AT_MS);
  return board;
}

/** The unit resumed `state`: no error, and the LEDs show exactly that state. */
function expectResumed(board: VirtualBoard, state: SavedState): void {
  expect(firmwareFailures(board), "failures at boot").toEqual([]);
  expect(frameDiff(R1, expectedBootFrame(R1, state, board.uptime), boardFrame(board)), "LEDs that differ from the state resumed").toEqual(
    [],
  );
}

/** The unit refused the save: no error, the warning shows, it is on the menu and answers keys. */
function expectDiscarded(board: VirtualBoard): void {
  expect(firmwareFailures(board), "failures at boot").toEqual([]);
  expect(
    board.consoleLog.find((l) => l.startsWith("brainboard: save not used")),
    `a console line "brainboard: save not used..." (the console says ${JSON.stringify(board.consoleLog)})`,
  ).toBeDefined();
  expect(board.colours("status")[1], "status LED 2 shortly after boot").toBe("yellow");
  // The menu: the game row lit (the chosen game white), OK blinking green (lit at this time).
  const pad = board.colours("pad");
  expect(
    pad.slice(0, 4).every((c) => c === "yellow" || c === "white") && pad[G_OK] === "green",
    `the menu on the pad: ${pad.join(",")}`,
  ).toBe(true);
  // It answers keys: choose the travel unit, then start a match.
  board.tap(gridKey(1), 30, 30);
  expect(board.colours("pad")[1], "the travel unit chosen on the menu").toBe("white");
  expect(readSavedState(board)?.settings.preset).toBe("travel");
  board.tap(gridKey(G_OK), 30, 30);
  expect(readSavedState(board)?.screen, "a match started with OK").toBe("play");
  expect(firmwareFailures(board), "failures after keys").toEqual([]);
  // The warning goes out after about 3 s.
  board.advance(3500);
  expect(board.colours("status")[1], "status LED 2 after 3.5 s").not.toBe("yellow");
}

/** Either outcome is right when the newer copy is refused and an older good one exists. */
function expectResumedOrDiscarded(board: VirtualBoard, older: SavedState): void {
  expect(firmwareFailures(board), "failures at boot").toEqual([]);
  const resumed = frameDiff(R1, expectedBootFrame(R1, older, board.uptime), boardFrame(board)).length === 0;
  if (!resumed) expectDiscarded(board);
}

/** Flips one byte of the JSON part of a slot's text (the checksum then no longer matches). */
function corrupt(text: string, at: number): string {
  const i = text.indexOf("{") + at;
  return text.slice(0, i) + String.fromCharCode(text.charCodeAt(i) ^ 0x20) + text.slice(i + 1);
}

const REFEREE: Goal = { game: "brainiac", harder: false, mode: "referee", games: 2 };
const FLIP: Goal = { game: "brainflip", flipMode: "flip", players: 3, grid: 4, unitFlips: false };

describe("bad saved data is recovered or discarded with a warning, never a crash", () => {
  let match: SlotCopy[] = [];
  let flip: SlotCopy[] = [];
  beforeAll(() => {
    // A referee game with at least 3 rows played, and a Brain Flip round with a question asked.
    match = playedSaves(REFEREE, 5, (s) => (s.match?.game.rows.length ?? 0) >= 3);
    flip = playedSaves(FLIP, 6, (s) => (s.flip?.round.log.length ?? 0) >= 1);
  });
  /** The last save and the one before it, each in its own slot, as the firmware leaves them. */
  const lastTwo = (saves: SlotCopy[]) => {
    const [older, newer] = saves.slice(-2);
    const slots: (string | undefined)[] = [undefined, undefined];
    slots[SLOT_NAMES.indexOf(older.name)] = older.text;
    slots[SLOT_NAMES.indexOf(newer.name)] = newer.text;
    return { older, newer, slots, newerIndex: SLOT_NAMES.indexOf(newer.name) };
  };

  it("two good copies: the unit resumes the newer one", () => {
    const { newer, slots } = lastTwo(match);
    expectResumed(bootWith(slots), newer.state);
  });

  it("a corrupt newer copy: the unit resumes the older one", () => {
    const { older, slots, newerIndex } = lastTwo(match);
    for (const at of [0, 10, 200]) {
      slots[newerIndex] = corrupt(lastTwo(match).newer.text, at);
      expectResumed(bootWith(slots), older.state);
    }
  });

  it("a truncated newer copy (cut short, the rest unwritten 0xFF or missing): the unit resumes the older one", () => {
    const { older, newer, slots, newerIndex } = lastTwo(match);
    for (const keep of [0.1, 0.5, 0.99]) {
      const n = Math.floor(newer.text.length * keep);
      slots[newerIndex] = newer.text.slice(0, n);
      expectResumed(bootWith(slots), older.state);
      slots[newerIndex] = newer.text.slice(0, n) + "\xff".repeat(newer.text.length - n);
      expectResumed(bootWith(slots), older.state);
    }
  });

  it("a corrupt Brain Flip copy: the unit resumes the older one", () => {
    const { older, newer, slots, newerIndex } = lastTwo(flip);
    slots[newerIndex] = corrupt(newer.text, 30);
    expectResumed(bootWith(slots), older.state);
  });

  it("both copies corrupt: the unit starts afresh with the warning", () => {
    const { older, newer } = lastTwo(match);
    expectDiscarded(bootWith([corrupt(older.text, 5), corrupt(newer.text, 50)]));
  });

  it("an older format (BB0, BB1: the unit reads only its own), a newer one or an unknown prefix: discarded with the warning", () => {
    const json = JSON.stringify(JSON.parse(match.at(-1)!.text.slice(match.at(-1)!.text.indexOf("{"))));
    for (const text of [
      `BB0|7|0|${json}`,
      encodeSlot(match.at(-1)!.state, 7, { format: 0 }),
      encodeSlot(match.at(-1)!.state, 7, { format: 1 }),
      encodeSlot(match.at(-1)!.state, 7, { format: 3 }),
      `XX1|7|0|${json}`,
      json,
    ])
      expectDiscarded(bootWith([text, undefined]));
  });

  it("random bytes in one or both files: discarded with the warning", () => {
    const rng = new Prng(77);
    for (let i = 0; i < 12; i++) {
      const bytes = (n: number) => {
        let s = i % 3 === 0 ? "BB1|" : "";
        while (s.length < n) s += String.fromCharCode(i % 2 ? rng.int(0, 255) : rng.int(32, 126));
        return s;
      };
      expectDiscarded(bootWith(i % 4 === 0 ? [bytes(rng.int(1, 2000)), bytes(rng.int(1, 50))] : [undefined, bytes(rng.int(1, 3000))]));
    }
  });

  it("an empty file: discarded with the warning", () => {
    expectDiscarded(bootWith(["", undefined]));
    expectDiscarded(bootWith(["", ""]));
  });

  /** Well-formed, checksummed JSON of the wrong shape: what a firmware bug or an old version could leave. */
  const WRONG_SHAPES: [string, (s: SavedState) => unknown][] = [
    ["the state is null", () => null],
    ["the state is a number", () => 42],
    ["the state is a list", () => []],
    ["no settings", (s) => ({ ...s, settings: undefined })],
    ["save version 0", (s) => ({ ...s, v: 0 })],
    ["a match without its game", (s) => ({ ...s, match: { ...s.match, game: undefined } })],
    ["a match without scores", (s) => ({ ...s, match: { ...s.match, scores: undefined } })],
    ["a match whose rows are a string", (s) => ({ ...s, match: { ...s.match, game: { ...s.match!.game, rows: "rows" } } })],
    ["a match whose scores are a string", (s) => ({ ...s, match: { ...s.match, scores: "12" } })],
    ["a match whose config is a number", (s) => ({ ...s, match: { ...s.match, config: 3 } })],
    ["a match whose history is an object", (s) => ({ ...s, match: { ...s.match, history: { gained: [1, 2] } } })],
    ["a game in an unknown phase", (s) => ({ ...s, match: { ...s.match, game: { ...s.match!.game, phase: "dancing" } } })],
    [
      "a match with 99 rows",
      (s) => {
        const rows = s.match!.game.rows;
        return {
          ...s,
          match: { ...s.match, game: { ...s.match!.game, rows: Array.from({ length: 99 }, (_, i) => rows[i % rows.length]) } },
        };
      },
    ],
    ["a secret of 6 pegs out of range", (s) => ({ ...s, match: { ...s.match, game: { ...s.match!.game, secret: [9, 9, 9, 9, 9, 9] } } })],
    [
      "a row whose guess is not a code",
      (s) => ({
        ...s,
        match: { ...s.match, game: { ...s.match!.game, rows: [{ guess: [0, "x", -4], feedback: { exact: 0, near: 0 } }] } },
      }),
    ],
    [
      "a row with 9 exact marks",
      (s) => ({
        ...s,
        match: { ...s.match, game: { ...s.match!.game, rows: [{ guess: [0, 1, 2, 3], feedback: { exact: 9, near: -1 } }] } },
      }),
    ],
    ["scores that the history does not give", (s) => ({ ...s, match: { ...s.match, scores: [100, 0] } })],
    ["a history entry that is null", (s) => ({ ...s, match: { ...s.match, history: [null] } })],
    ["a codemaker who is player 7", (s) => ({ ...s, match: { ...s.match, maker: 7 } })],
  ];
  const FLIP_SHAPES: [string, (s: SavedState) => unknown][] = [
    ["a Brain Flip game without its round", (s) => ({ ...s, flip: { ...s.flip, round: undefined } })],
    ["a Brain Flip pick of card 99", (s) => ({ ...s, flip: { ...s.flip, round: { ...s.flip!.round, pick: 99 } } })],
    ["Brain Flip wrong cards that are a string", (s) => ({ ...s, flip: { ...s.flip, round: { ...s.flip!.round, wrongCards: "3" } } })],
    ["Brain Flip scores below zero", (s) => ({ ...s, flip: { ...s.flip, scores: [-5, 0, 0] } })],
    ["Brain Flip with 2 scores for 3 players", (s) => ({ ...s, flip: { ...s.flip, scores: [0, 0] } })],
    ["a Brain Flip turn of player 9", (s) => ({ ...s, flip: { ...s.flip, round: { ...s.flip!.round, turn: 9 } } })],
    ["a Brain Flip log that is a number", (s) => ({ ...s, flip: { ...s.flip, round: { ...s.flip!.round, log: 5 } } })],
    ["a Brain Flip log entry that is null", (s) => ({ ...s, flip: { ...s.flip, round: { ...s.flip!.round, log: [null] } } })],
    [
      "a Brain Flip answer by player 9",
      (s) => ({ ...s, flip: { ...s.flip, round: { ...s.flip!.round, log: [{ player: 9, kind: FLIP_ANSWER, yes: true, card: -1 }] } } }),
    ],
  ];

  for (const [what, change] of WRONG_SHAPES)
    it(`valid JSON of the wrong shape, ${what}: discarded with the warning`, () => {
      expectDiscarded(bootWith([encodeSlot(change(structuredClone(match.at(-1)!.state)), 9), undefined]));
    });
  for (const [what, change] of FLIP_SHAPES)
    it(`valid JSON of the wrong shape, ${what}: discarded with the warning`, () => {
      expectDiscarded(bootWith([undefined, encodeSlot(change(structuredClone(flip.at(-1)!.state)), 9)]));
    });

  it("a newer copy of the wrong shape beside a good older one: the older one is resumed, or both are dropped with the warning", () => {
    const { older, newer, slots, newerIndex } = lastTwo(match);
    slots[newerIndex] = encodeSlot({ ...newer.state, match: { ...newer.state.match, game: undefined } }, newer.seq);
    expectResumedOrDiscarded(bootWith(slots), older.state);
  });
});
