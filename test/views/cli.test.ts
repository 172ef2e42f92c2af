import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { DEFAULT_OUT } from "../../firmware/tools/build.ts";
import { MAX_SCRIPT_BYTES, type CliJson } from "../../sim/cli.ts";
import { bootBoard, parseScript, runCommands } from "../../sim/play/script.ts";
import { firmware, ROOT, SCRIPTS, script } from "./helpers.ts";

const dir = mkdtempSync(join(tmpdir(), "brainboard-cli-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs the command line as a child process with the bundle vitest built. */
function cli(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ["--import", "tsx", "sim/cli.ts", "--firmware", DEFAULT_OUT, ...args],
      { cwd: ROOT, env: { ...process.env, NO_COLOR: "1" }, maxBuffer: 16 << 20 },
      (err, stdout, stderr) => resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

function scriptFile(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

describe("npm run sim -- --script FILE", () => {
  it("--json without --show-secret reports the secret's holes off, as the text form hides them", async () => {
    const r = await cli("--script", SCRIPTS + "mid-game.txt", "--json");
    const out = JSON.parse(r.stdout) as CliJson;
    const board = bootBoard({ firmware: firmware() });
    runCommands(board, parseScript(script("mid-game.txt"), board.profile));
    expect(board.colours("secret").some((c) => c !== "off")).toBe(true); // the secret is lit on the unit
    expect(out.segments.secret.every((p) => p.name === "off" && p.rgb.every((v) => v === 0))).toBe(true);
    for (const sh of out.shows) expect(sh.segments.secret.every((p) => p.name === "off")).toBe(true);
  });

  it("--json gives every segment's pixels as palette names and RGB, the same as board.colours() and board.pixels()", async () => {
    const r = await cli("--script", SCRIPTS + "brainiac-game.txt", "--json", "--show-secret", "--seed", "7", "--bounce", "3");
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout) as CliJson;
    const board = bootBoard({ firmware: firmware(), seed: 7, bounceMs: 3 });
    runCommands(board, parseScript(script("brainiac-game.txt"), board.profile));
    expect(Object.keys(out.segments)).toEqual(["board", "keys", "secret", "pad", "track", "status"]);
    for (const [seg, pixels] of Object.entries(out.segments)) {
      const s = seg as Parameters<typeof board.colours>[0];
      expect(
        pixels.map((p) => p.name),
        seg,
      ).toEqual(board.colours(s));
      expect(
        pixels.map((p) => p.rgb),
        seg,
      ).toEqual(board.pixels(s).map((p) => [p.r, p.g, p.b]));
    }
    expect(out.now).toBe(board.now);
    expect(out.tone).toEqual(board.tone);
    expect(out.console).toEqual(board.consoleLog);
    expect(out.errors).toEqual([]);
    expect(out.expectFailure).toBeNull();
    expect(out.shows).toHaveLength(1);
    expect(out.shows[0].line).toBeGreaterThan(0);
    expect(out.shows[0].segments.board).toHaveLength(60);
  });

  it("prints the board as text, row 1 at the bottom, the secret hidden unless --show-secret", async () => {
    const path = scriptFile("secret.txt", "tap ok\nwait 200\ntap maker.red maker.green maker.blue maker.yellow\nshow\n");
    const r = await cli("--script", path);
    expect(r.code).toBe(0);
    const end = r.stdout.slice(r.stdout.indexOf("end:"));
    const lines = end.split("\n");
    expect(lines.findIndex((l) => l.startsWith("row 12"))).toBeLessThan(lines.findIndex((l) => l.startsWith("row  1")));
    expect(end).toMatch(/^secret +\(hidden under the codemaker's shield/m);
    expect(r.stdout).toContain("show (line 4):");
    const shown = await cli("--script", path, "--show-secret");
    expect(shown.stdout).toMatch(/^secret +r g b y/m);
  });

  it("exits 1 naming the line when an expect fails, after printing the board", async () => {
    const path = scriptFile("fail.txt", "# a wrong expectation\ntap ok\nwait 200\nexpect status[0] green\n");
    const r = await cli("--script", path);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain("end:");
    expect(r.stderr).toMatch(/fail\.txt: line 4: expected status\[0\] to be green, saw \S+/);
    const json = await cli("--script", path, "--json");
    expect(json.code).toBe(1);
    expect((JSON.parse(json.stdout) as CliJson).expectFailure?.line).toBe(4);
  });

  it("refuses a bad script before running anything, naming each bad line", async () => {
    const path = scriptFile("bad.txt", "tap ok\nprss ok\nwait\npress p77\n");
    const r = await cli("--script", path);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe("");
    expect(r.stderr).toContain('bad.txt: line 2: unknown command "prss"');
    expect(r.stderr).toContain("bad.txt: line 3: wait needs a duration like 200 or 1.5s");
    expect(r.stderr).toContain('bad.txt: line 4: unknown key "p77" (keys: p11..p66, m11..m34');
  });

  it("exits 1 and prints the firmware's errors when the firmware records one", async () => {
    const broken = join(dir, "broken.js");
    writeFileSync(broken, 'setTimeout(function () { throw new Error("boom"); }, 50);');
    const r = await cli("--script", scriptFile("wait.txt", "wait 100\n"), "--firmware", broken);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/firmware error: .*boom/);
  });

  it("keeps Storage in a file with --storage, so a second run resumes the match", async () => {
    const storage = join(dir, "storage.json");
    const first = await cli("--script", scriptFile("start.txt", "tap ok\nwait 200\n"), "--storage", storage, "--json");
    expect(first.code).toBe(0);
    const started = JSON.parse(first.stdout) as CliJson;
    const second = await cli("--script", scriptFile("nothing.txt", "wait 300\n"), "--storage", storage, "--json");
    const resumed = JSON.parse(second.stdout) as CliJson;
    // Both runs show the play screen's menu key (blue), not the menu.
    expect(resumed.segments.pad[30].name).toBe(started.segments.pad[30].name);
    expect(resumed.segments.status.map((p) => p.name)).toEqual(started.segments.status.map((p) => p.name));
  });

  it("explains its options with --help and refuses an unknown option", async () => {
    const help = await cli("--help");
    expect(help.code).toBe(0);
    expect(help.stdout).toContain("--script FILE");
    const bad = await cli("--scrpt", "x");
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain("usage:");
  });
});

describe("npm run sim -- --script FILE: hostile scripts", () => {
  it("a script's escape and bell bytes are shown as \\xHH in the messages, never sent raw to the terminal", async () => {
    const r = await cli("--script", scriptFile("escapes.txt", "tap \x1b[2J\x1b]0;owned\x07\n"));
    expect(r.code).toBe(1);
    expect(r.stderr).not.toMatch(/[\x07\x1b]/);
    expect(r.stderr).toContain("\\x1b");
  });

  it("a script over the size limit is refused before it is read", async () => {
    const big = scriptFile("big.txt", "wait 1\n".repeat(Math.ceil((MAX_SCRIPT_BYTES + 1) / 7)));
    const r = await cli("--script", big);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`a script may have at most ${MAX_SCRIPT_BYTES} bytes`);
  });
});
