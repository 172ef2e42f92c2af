import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { decodeSaved, drawPictures, padShowsCards, PictureDeal, PICTURES, readSaved, type Saved } from "../../sim/views/pictures.ts";
import { Prng } from "../../firmware/tools/prng.ts";
import { startSimulator, type Simulator } from "../../sim/web/server.ts";
import { firmware } from "./helpers.ts";
import { FLIP_ASK, FLIP_PICK } from "../../firmware/core/brainflip.ts";

/** Every element of an SVG string is closed, in order. */
function balanced(svg: string): boolean {
  const open: string[] = [];
  for (const m of svg.matchAll(/<(\/?)([a-zA-Z]+)[^>]*?(\/?)>/g)) {
    if (m[3]) continue;
    if (!m[1]) open.push(m[2]);
    else if (open.pop() !== m[2]) return false;
  }
  return open.length === 0;
}

describe("Brain Flip's 100 pictures", () => {
  it("are 100, each with its own name and its own SVG", () => {
    expect(PICTURES.length).toBe(100);
    expect(PICTURES.map((p) => p.id)).toEqual([...Array(100).keys()]);
    expect(new Set(PICTURES.map((p) => p.name)).size).toBe(100);
    expect(new Set(PICTURES.map((p) => p.svg)).size).toBe(100);
    expect(new Set(PICTURES.map((p) => `${p.subject} ${p.colour}`)).size).toBe(100);
    for (const p of PICTURES) {
      expect(p.svg, p.name).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" viewBox="0 0 100 100">.*<\/svg>$/);
      expect(balanced(p.svg), p.name).toBe(true);
      expect(p.svg, p.name).not.toMatch(/NaN|undefined/);
      expect(p.name, p.name).toMatch(/^(a|an|two|three) [a-z ]+$/);
    }
    expect(PICTURES.filter((p) => p.count > 1 && p.pattern !== "plain" && p.hat).map((p) => p.name)).toContain(
      "three brown striped cats with hats",
    );
  });

  it("are generated so that yes/no questions about what shows split the grid", () => {
    const share = (tag: string) => PICTURES.filter((p) => p.tags.includes(tag)).length;
    // "Is it an animal?", "does it have wheels?", "is it round?", "is there something red?", "more than one?", ...
    for (const tag of [
      "animal",
      "vehicle",
      "food",
      "sky",
      "wheels",
      "round",
      "flies",
      "face",
      "red",
      "blue",
      "several",
      "stripes",
      "dots",
      "hat",
    ])
      expect(share(tag), tag).toBeGreaterThanOrEqual(8);
    expect(share("several")).toBe(50);
    expect(share("animal")).toBe(20);
    for (const colour of ["red", "orange", "yellow", "green", "blue", "purple", "pink", "grey"])
      expect(share(colour), colour).toBeGreaterThanOrEqual(5);
  });

  it("are drawn without repeats, differently from one draw to the next", () => {
    const a = drawPictures(36, Math.random);
    const b = drawPictures(36, Math.random);
    expect(a.length).toBe(36);
    expect(new Set(a).size).toBe(36);
    expect(a.every((id) => id >= 0 && id < 100)).toBe(true);
    expect(b).not.toEqual(a);
    const prng = new Prng(7);
    expect(new Set(drawPictures(100, () => prng.next())).size).toBe(100);
    expect(() => drawPictures(101, Math.random)).toThrow();
  });
});

describe("reading the firmware's saves", () => {
  const game = (over: Partial<{ rounds: number; phase: number; asked: number; scores: number[] }> = {}) => ({
    config: { players: 3, grid: 6, mode: "flip", unitFlips: false },
    scores: over.scores ?? [0, 0, 0],
    round: {
      master: 0,
      pick: -1,
      turn: 1,
      asked: over.asked ?? 0,
      log: [],
      barred: [false, false, false],
      wrongCards: [],
      phase: over.phase ?? FLIP_PICK,
    },
    over: false,
    winner: -1,
    rounds: over.rounds ?? 1,
  });

  it("reads an unminified snapshot and tells a game at its start from one under way", () => {
    expect(decodeSaved({ v: 1, screen: "flip", flip: game() })).toMatchObject({ screen: "flip", flip: { grid: 6, atStart: true } });
    expect(decodeSaved({ v: 1, screen: "flip", flip: game({ phase: FLIP_ASK }) })?.flip?.atStart).toBe(false);
    expect(decodeSaved({ v: 1, screen: "flip", flip: game({ rounds: 2 }) })?.flip?.atStart).toBe(false);
    expect(decodeSaved({ v: 1, screen: "flip", flip: game({ scores: [0, 1, 0] }) })?.flip?.atStart).toBe(false);
    expect(decodeSaved({ v: 1, screen: "menu", flip: null })).toEqual({ screen: "menu", flip: null });
    expect(decodeSaved("nonsense")).toBeNull();
  });

  it("reads the minified bundle's saves, short property names and all, from the unit's Storage", async () => {
    const sim = await startSimulator({ firmware: firmware(), port: 0, realtime: false, seed: 2 });
    try {
      sim.command("wait 200\ntap p14\ntap p66\nwait 100");
      const latest = readSaved(sim.board.storage);
      expect(latest?.text).toMatch(/^BB2\|\d+\|\d+\|\{"v":2,"s":"flip"/);
      expect(latest?.saved).toMatchObject({ screen: "flip", flip: { grid: 6, atStart: true } });
      sim.command("tap p11\nwait 100");
      expect(readSaved(sim.board.storage)?.saved.flip?.atStart).toBe(false);
    } finally {
      await sim.close();
    }
  });

  it("deals for a new game only: the cards stay through the rounds and come back on a resume", () => {
    let draws = 0;
    const deal = new PictureDeal(() => {
      draws++;
      return Math.random;
    });
    const saved = (screen: string, g: ReturnType<typeof game> | null): Saved => decodeSaved({ v: 1, screen, flip: g })!;
    deal.start(saved("menu", null));
    expect(deal.deal).toBeNull();
    expect(deal.saw(saved("flip", game()), true)).toBe(true);
    const first = deal.deal!;
    expect(first.game).toBe(1);
    expect(deal.saw(saved("flip", game({ phase: FLIP_ASK, asked: 0 })), false)).toBe(false);
    expect(deal.saw(saved("flip", game({ rounds: 2, scores: [0, 1, 0] })), false)).toBe(false);
    expect(deal.saw(saved("menu", game({ rounds: 2, scores: [0, 1, 0] })), false)).toBe(false);
    expect(deal.saw(saved("flip", game({ rounds: 2, scores: [0, 1, 0] })), false)).toBe(false);
    expect(deal.deal).toBe(first);
    // A new game after one under way: at its start, and not the game saved before.
    expect(deal.saw(saved("menu", game({ rounds: 2, scores: [0, 1, 0] })), false)).toBe(false);
    expect(deal.saw(saved("flip", game()), true)).toBe(true);
    expect(deal.deal!.game).toBe(2);
    // Left to the menu before the pick: resumed (OK not held) it keeps its cards; a new game (OK held) does not.
    expect(deal.saw(saved("menu", game()), false)).toBe(false);
    expect(deal.saw(saved("flip", game()), false)).toBe(false);
    expect(deal.deal!.game).toBe(2);
    expect(deal.saw(saved("menu", game()), false)).toBe(false);
    expect(deal.saw(saved("flip", game()), true)).toBe(true);
    expect(deal.deal!.game).toBe(3);
    expect(draws).toBe(3);
  });

  it("sees the Brain Flip screen on the pad: cards cyan, off or green", () => {
    const pad = Array<string>(36).fill("off");
    expect(padShowsCards(pad, 6)).toBe(true);
    pad[0] = "cyan";
    pad[7] = "green";
    expect(padShowsCards(pad, 6)).toBe(true);
    pad[5] = "red";
    expect(padShowsCards(pad, 6)).toBe(false);
    expect(padShowsCards(pad, 5)).toBe(true);
  });
});

describe("the simulator deals the pictures for each Brain Flip game", () => {
  let sim: Simulator | null = null;
  let dir: string | null = null;
  afterEach(async () => {
    await sim?.close();
    sim = null;
    if (dir) rmSync(dir, { recursive: true, force: true });
    dir = null;
  });

  const cards = () => sim!.state().flip;

  it("draws 36 distinct pictures when a game starts, keeps them for the whole game and draws others for the next", async () => {
    sim = await startSimulator({ firmware: firmware(), port: 0, realtime: false, seed: 4 });
    sim.command("wait 200");
    expect(cards()).toBeNull();
    sim.command("tap p14\nwait 100");
    expect(cards()).toBeNull(); // the menu
    sim.command("tap p66\nwait 100");
    const first = cards()!;
    expect(first).toMatchObject({ game: 1, grid: 6, picked: -1 });
    expect(new Set(first.pictures).size).toBe(36);

    // Round 1: the Master (red) picks card 0, the next player guesses it: the round is over, the card blinks green.
    sim.command("tap p11\nwait 100\ntap m31\nwait 100\ntap p11");
    expect(sim.board.colours("pad")[0]).toBe("green");
    expect(cards()).toEqual({ ...first, picked: 0 });
    for (let i = 0; i < 20 && sim.board.colours("pad")[0] !== "off"; i++) sim.command("wait 25");
    expect(sim.board.colours("pad")[0]).toBe("off"); // between blinks: still the Master's card, not out
    expect(cards()).toEqual({ ...first, picked: 0 });
    // Round 2, and a power cycle in the middle of it.
    sim.command("tap m34\nwait 100\ntap p36\nwait 100\ntap m32\nwait 100");
    expect(cards()).toEqual(first);
    sim.command("power cycle\nwait 300");
    expect(cards()).toEqual(first);
    // To the menu (no cards there) and back to the same game.
    sim.command("tap m11\nwait 100");
    expect(cards()).toBeNull();
    expect(sim.deal).toEqual({ game: 1, grid: 6, pictures: first.pictures });
    sim.command("tap p65\nwait 100");
    expect(cards()).toEqual(first);

    // A new game (over the one in progress, so OK twice): new pictures.
    sim.command("tap m11\nwait 100\ntap p66\nwait 100\ntap p66\nwait 100");
    const second = cards()!;
    expect(second.game).toBe(2);
    expect(new Set(second.pictures).size).toBe(36);
    expect(second.pictures).not.toEqual(first.pictures);
    // Left before the pick and resumed: the same; a new game with the same settings: new ones.
    sim.command("tap m11\nwait 100\ntap p65\nwait 100");
    expect(cards()).toEqual(second);
    sim.command("tap m11\nwait 100\ntap p66\nwait 100\ntap p66\nwait 100");
    expect(cards()!.game).toBe(3);
    expect(cards()!.pictures).not.toEqual(second.pictures);
    // A 3x3 game: 9 cards.
    sim.command("tap m11\nwait 100\ntap p42\nwait 100\ntap p66\nwait 100\ntap p66\nwait 100");
    expect(cards()).toMatchObject({ game: 4, grid: 3 });
    expect(new Set(cards()!.pictures).size).toBe(9);
    // A codebreaker match shows no cards.
    sim.command("tap m11\nwait 100\ntap p11\nwait 100\ntap p66\nwait 100");
    expect(cards()).toBeNull();
    expect(sim.board.errors).toEqual([]);
  });

  it("serves the pictures to the page", async () => {
    sim = await startSimulator({ firmware: firmware(), port: 0, realtime: false });
    const list = (await (await fetch(new URL("api/pictures", sim.url), { headers: sim.headers })).json()) as {
      id: number;
      name: string;
      svg: string;
    }[];
    expect(list.length).toBe(100);
    expect(list[0]).toEqual({ id: 0, name: PICTURES[0].name, svg: PICTURES[0].svg });
  });

  it("keeps a game's cards when the simulator restarts with the same Storage file", async () => {
    dir = mkdtempSync(join(tmpdir(), "brainboard-pictures-"));
    const storageFile = join(dir, "storage.json");
    sim = await startSimulator({ firmware: firmware(), port: 0, realtime: false, storageFile });
    sim.command("wait 200\ntap p14\ntap p66\nwait 100\ntap p11\nwait 100");
    const dealt = cards()!;
    await sim.close();
    sim = await startSimulator({ firmware: firmware(), port: 0, realtime: false, storageFile });
    sim.command("wait 300");
    expect(cards()).toEqual(dealt);
    sim.command("tap m11\nwait 100\ntap p66\nwait 100\ntap p66\nwait 100");
    expect(cards()!.game).toBe(dealt.game + 1);
  });
});
