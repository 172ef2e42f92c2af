import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // Builds dist/firmware.js once, so the device and scenario tests run the very bundle that is flashed.
    globalSetup: ["test/setup/build-bundle.ts"],
    // Two workers on the 2-core machine: several files spend most of their time waiting on real time (the real
    // interpreter, the flash tool's CLI), and one worker alone would take the suite past its 15 minutes.
    maxWorkers: 2,
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
