/**
 * The simulator's console served for a test file: `consoleServers()` (called at the file's top level) returns
 * serve(board[, clock]), which starts a console server on a free loopback port; every server started is closed after
 * each test.
 */
import { afterEach } from "vitest";
import type { VirtualBoard } from "../../sim/board/board.ts";
import { startConsoleServer, type ConsoleServer } from "../../sim/console/server.ts";

export function consoleServers(): (board: VirtualBoard, clock?: "connected" | "manual") => Promise<ConsoleServer> {
  let servers: ConsoleServer[] = [];
  afterEach(async () => {
    await Promise.all(servers.map((s) => s.close()));
    servers = [];
  });
  return async (board, clock) => {
    const s = await startConsoleServer(board, { clock });
    servers.push(s);
    return s;
  };
}
