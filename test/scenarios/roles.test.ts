/**
 * docs/rules.md 3: who makes and who breaks on the electronic unit. Played with keys on the bundle in
 * the virtual board; answers are read off the LEDs.
 */
import { describe, expect, it } from "vitest";
import { LED_NAMES, UnitDriver } from "./driver.ts";
import { feedback } from "../../firmware/core/feedback.ts";
import { conflictingRows, countConsistent, firstConsistent } from "../../firmware/core/codes.ts";
import { rulesFor } from "../../firmware/core/presets.ts";
import type { Code, Feedback, Row } from "../../firmware/core/types.ts";

const symbolOf = (name: string, colours: number) => (name === "off" ? colours : LED_NAMES.indexOf(name));

/** Every feedback a row of `pegs` holes can get. */
function allFeedbacks(pegs: number): Feedback[] {
  const out: Feedback[] = [];
  for (let e = 0; e <= pegs; e++) for (let n = 0; e + n <= pegs; n++) if (!(e === pegs - 1 && n === 1)) out.push({ exact: e, near: n });
  return out;
}

describe("docs/rules.md 3: roles on the electronic unit", () => {
  it("two players, unit referees: the secret is keyed in hidden and the unit gives the feedback", () => {
    const u = new UnitDriver();
    u.startMatch({ preset: "brainiac", mode: "referee" });
    u.tap("m11", "m12", "m13");
    // While the secret is keyed in, nothing of it shows where the codebreaker looks.
    for (const seg of ["board", "keys", "pad", "track"] as const)
      expect(u.board.colours(seg).filter((c) => LED_NAMES.slice(0, 6).includes(c) && seg !== "pad")).toEqual([]);
    expect(u.board.colours("pad").filter((c) => c !== "off" && c !== "blue")).toEqual([]);
    // Under the shield the codemaker sees it.
    expect(u.secretPixels().slice(0, 3)).toEqual(["red", "green", "blue"]);
    u.tap("m14", "m34");
    u.guess([0, 1, 3, 2]);
    expect(u.feedbackRow(0)).toMatchObject({ exact: 2, near: 2 });
  });

  it("two players, codemaker answers: a true answer stands and play goes on", () => {
    const u = new UnitDriver();
    u.startMatch({ preset: "travel", mode: "manual" });
    u.makerSecret([0, 1, 2, 3]);
    u.guess([0, 2, 4, 5]);
    // The row waits for the codemaker's answer: its key holes blink.
    expect(u.status()[0]).toBe("red");
    u.answer({ exact: 1, near: 1 });
    expect(u.feedbackRow(0)).toMatchObject({ exact: 1, near: 1 });
    expect(u.pointScores()).toEqual([0, 0]);
    expect(u.status()[0]).toBe("blue"); // the codebreaker's move again
  });

  it("solo: the unit makes a random secret under the preset's rules and never shows it before the end", () => {
    const rules = rulesFor("travel", false);
    const u = new UnitDriver({ seed: 11 });
    u.startMatch({ preset: "travel", mode: "unit-makes" });
    const rows: Row[] = [];
    // Break it with consistent guesses, reading every answer off the LEDs.
    for (let r = 0; r < rules.rows && u.status()[1] !== "green"; r++) {
      expect(u.secretPixels().every((c) => c === "off")).toBe(true);
      let guess: Code | null = null;
      for (let i = 0; i < 8 ** 4 && !guess; i++) {
        const g = [i % 8, (i >> 3) % 8, (i >> 6) % 8, (i >> 9) % 8];
        if (new Set(g).size === 4 && rows.every((row) => JSON.stringify(feedback(row.guess, g)) === JSON.stringify(row.feedback)))
          guess = g;
      }
      u.guess(guess!);
      const fb = u.feedbackRow(r);
      rows.push({ guess: guess!, feedback: { exact: fb.exact, near: fb.near } });
    }
    expect(u.status()[1]).toBe("green");
    const secret = u.revealed().map((c) => symbolOf(c, 8));
    expect(new Set(secret).size).toBe(4); // the travel unit's secret has no repeated colour
    for (const row of rows) expect(feedback(row.guess, secret)).toEqual(row.feedback);
  });

  it("unit breaks: it guesses from the player's feedback and breaks a code kept in the head", () => {
    const rules = rulesFor("brainiac", false);
    const secret = [4, 2, 2, 5];
    const u = new UnitDriver({ seed: 3 });
    u.startMatch({ preset: "brainiac", mode: "unit-breaks" });
    u.tap("m34"); // OK on an empty secret: keep the code in my head
    let r = 0;
    for (; r < rules.rows; r++) {
      const guess = u.boardRow(r).map((c) => symbolOf(c, 6));
      expect(guess.every((s) => s >= 0 && s < 6)).toBe(true);
      u.answer(feedback(guess, secret));
      if (guess.join() === secret.join()) break;
    }
    expect(r).toBeLessThan(rules.rows);
    expect(u.status()[1]).toBe("green");
    // The player made the code, so the player scores the rows the unit needed.
    expect(u.pointScores()).toEqual([r + 1, 0]);
  });

  it("unit breaks: contradictory feedback is detected at once and the rows in conflict are shown", () => {
    const rules = rulesFor("brainiac", false);
    const u = new UnitDriver({ seed: 5 });
    u.startMatch({ preset: "brainiac", mode: "unit-breaks" });
    u.tap("m34");
    const rows: Row[] = [];
    let clashAt = -1;
    // Answer consistently until some answer would leave no possible code; then give that answer.
    for (let r = 0; r < rules.rows && clashAt < 0; r++) {
      const guess = u.boardRow(r).map((c) => symbolOf(c, 6));
      // An answer possible on its own but not together with the earlier rows.
      const clash = allFeedbacks(4).find(
        (fb) => countConsistent(rules, [{ guess, feedback: fb }]) > 0 && countConsistent(rules, [...rows, { guess, feedback: fb }]) === 0,
      );
      const fb =
        clash ??
        feedback(guess, firstConsistent(rules, rows.concat([{ guess, feedback: { exact: 0, near: 0 } }])) ?? firstConsistent(rules, rows)!);
      rows.push({ guess, feedback: fb });
      if (clash) clashAt = r;
      u.answer(fb);
    }
    expect(clashAt).toBeGreaterThan(0);
    expect(u.status()[1]).toBe("red");
    // The rows in conflict blink their marks; the others stay steady.
    const atFault = conflictingRows(rules, rows);
    expect(atFault).toContain(clashAt);
    expect(atFault.length).toBeGreaterThan(1);
    const lit = (row: number) => u.feedbackRow(row).pixels.some((p) => p !== "off");
    for (let row = 0; row < rows.length; row++) {
      const seen = new Set<boolean>();
      for (let i = 0; i < 6; i++) {
        seen.add(lit(row));
        u.board.advance(100);
      }
      const marks = rows[row].feedback.exact + rows[row].feedback.near;
      if (atFault.includes(row) && marks > 0) expect(seen, `row ${row + 1} blinks`).toEqual(new Set([true, false]));
      else expect(seen.size, `row ${row + 1} is steady`).toBe(1);
    }
    // The sheets' wrong-information rule: the unit, as codebreaker, gets 3 points, and the game is replayed.
    expect(u.pointScores()).toEqual([0, 3]);
  });

  it("against the unit, roles switch every game: the unit breaks after making", () => {
    const u = new UnitDriver({ seed: 9 });
    u.startMatch({ preset: "brainiac", mode: "unit-makes", games: 2 });
    // Game 1: the unit made its code at once; the player guesses (colour keys offered).
    expect(u.padAt(0)).toBe("red");
    for (let i = 0; i < 12 && u.status()[1] !== "green" && u.status()[1] !== "orange"; i++)
      u.guess([i % 6, i % 6, (i + 1) % 6, (i + 1) % 6]);
    u.tap("p66");
    // Game 2: the player makes the code on the codemaker pad; then the unit's first guess appears at once.
    expect(u.padAt(0)).toBe("off");
    u.makerSecret([0, 1, 2, 3]);
    expect(u.boardRow(0).every((c) => c !== "off" && c !== "hole")).toBe(true);
  });

  it("scores are kept per player across games with the role switch", () => {
    const u = new UnitDriver();
    u.startMatch({ preset: "brainiac", mode: "referee", games: 4 });
    const play = (secret: number[], wrongRows: number) => {
      u.makerSecret(secret);
      for (let i = 0; i < wrongRows; i++) u.guess([5, 5, 5, 5]);
      u.guess(secret);
      u.tap("p66");
    };
    play([0, 1, 2, 3], 3); // player 0 makes: +4
    play([1, 2, 3, 4], 1); // player 1 makes: +2
    play([2, 3, 4, 0], 0); // player 0 makes: +1
    expect(u.pointScores()).toEqual([5, 2]);
  });
});
