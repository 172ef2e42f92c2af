import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // Builds dist/firmware.js once, so the device and scenario tests run the very bundle that is flashed.
    globalSetup: ["test/setup/build-bundle.ts"],
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
