/** Shared helpers for tests that run the built bundle (dist/firmware.js) on the virtual board. */
import { readFileSync } from "node:fs";
import { VirtualBoard, type BoardOptions } from "../../sim/board/board.ts";
import { DEFAULT_OUT } from "../../firmware/tools/build.ts";
import { keyList, loadProfile } from "../../hardware/profile.ts";

let bundle: string | undefined;
/** The bundle built by test/setup/build-bundle.ts. */
export function firmwareBundle(): string {
  bundle ??= readFileSync(DEFAULT_OUT, "utf8");
  return bundle;
}

/** A powered-on R1 board running the bundle, past its first frame. */
export function bootedBoard(opts: BoardOptions = {}): VirtualBoard {
  const board = new VirtualBoard({ firmware: firmwareBundle(), ...opts });
  board.powerOn();
  board.advance(200);
  return board;
}

/** Powers on with OK held, which starts the self-test; returns the board with OK released. */
export function selfTestBoard(opts: BoardOptions = {}): VirtualBoard {
  const board = new VirtualBoard({ firmware: firmwareBundle(), ...opts });
  board.press("p66");
  board.powerOn();
  board.advance(80);
  board.release("p66");
  board.advance(80);
  return board;
}

/** Key events echoed by the self-test on the console, as "p11 down" with key ids. */
export function echoedKeys(board: VirtualBoard): string[] {
  const ids = keyList(board.profile).map((k) => k.id);
  const out: string[] = [];
  for (const line of board.consoleLog) {
    const m = /^key (\d+) (down|up)$/.exec(line.trim());
    if (m) out.push(`${ids[Number(m[1])]} ${m[2]}`);
  }
  return out;
}

/** Presses and releases each key in turn (60 ms down, 60 ms up); returns the self-test's echo of them. */
export function echoEachKey(board: VirtualBoard, ids: string[]): string[] {
  const before = echoedKeys(board).length;
  for (const id of ids) {
    board.press(id);
    board.advance(60);
    board.release(id);
    board.advance(60);
  }
  return echoedKeys(board).slice(before);
}

/** Estimated LED current of what the chain shows, with the same model as the profile's budget. */
export function estimatedCurrentMa(board: VirtualBoard): number {
  const p = board.profile.leds;
  let ma = 0;
  for (const px of board.pixels()) ma += p.idleMaPerPixel + (p.maPerChannel * (px.r + px.g + px.b)) / 255;
  return ma;
}

export const R1 = loadProfile("r1-pico");
