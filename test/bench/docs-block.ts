/**
 * The benchmarks write their figures into docs/performance.md themselves (`--write`): each owns a block between
 * `<!-- bench:NAME -->` and `<!-- /bench:NAME -->`, replaced whole with the figures, the date and the machine.
 */
import { cpus, loadavg } from "node:os";
import { readFileSync, writeFileSync } from "node:fs";
import * as prettier from "prettier";
import { ROOT } from "../../firmware/tools/build.ts";

export const PERFORMANCE_DOC = ROOT + "docs/performance.md";

/** The date (UTC, to the minute) and the machine a figure was measured on. */
export function measuredOn(): string {
  const cpu = cpus();
  const date = new Date().toISOString().slice(0, 16).replace("T", " ");
  return `${date} UTC, ${cpu[0]?.model.trim() ?? "unknown CPU"} (${cpu.length} cores, load average ${loadavg()[0].toFixed(1)} at the end)`;
}

/**
 * Replaces block `name` of docs/performance.md with `body`, formatted as the project formats Markdown (so that the
 * format check holds after a run); throws when the file or its markers are missing.
 */
export async function writeBlock(name: string, body: string): Promise<void> {
  const text = readFileSync(PERFORMANCE_DOC, "utf8");
  const open = `<!-- bench:${name} -->`;
  const close = `<!-- /bench:${name} -->`;
  const a = text.indexOf(open);
  const b = text.indexOf(close);
  if (a < 0 || b < a) throw new Error(`${PERFORMANCE_DOC} has no block ${open} ... ${close} to write into`);
  const next = text.slice(0, a + open.length) + "\n" + body.trim() + "\n" + text.slice(b);
  const options = (await prettier.resolveConfig(PERFORMANCE_DOC)) ?? {};
  writeFileSync(PERFORMANCE_DOC, await prettier.format(next, { ...options, filepath: PERFORMANCE_DOC }));
}

/** A Markdown table. */
export function table(head: string[], rows: (string | number)[][]): string {
  const line = (cells: (string | number)[]) => `| ${cells.join(" | ")} |`;
  return [line(head), line(head.map(() => "---")), ...rows.map(line)].join("\n");
}
