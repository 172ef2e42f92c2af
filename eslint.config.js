// ESLint: typescript-eslint's recommended rules, plus the layer rules of DESIGN.md section 2.
import tseslint from "typescript-eslint";

const outsideFirmware = ["**/sim/**", "**/test/**", "node:*", "fs", "path", "child_process"];

export default tseslint.config(
  { ignores: ["dist/**", "node_modules/**", "test/gate/fixtures/**", "firmware/types/lib.espruino.d.ts", "sim/web/page/vendor/**"] },
  ...tseslint.configs.recommended,
  {
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
    },
  },
  {
    // The bundle mangles property names (firmware/tools/mangle.ts): obj["name"] would not follow.
    files: ["firmware/**/*.ts"],
    rules: { "dot-notation": "error" },
  },
  {
    // core is pure rules: it imports nothing but itself.
    files: ["firmware/core/**/*.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              group: ["**/ui/**", "**/device/**", "../ui", "../device", "../main", ...outsideFirmware],
              message: "firmware/core is pure: it may import only firmware/core (DESIGN.md 2).",
            },
          ],
        },
      ],
    },
  },
  {
    // ui is pure too: core in, frames out; never the device layer, the simulator or tests.
    files: ["firmware/ui/**/*.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              group: ["**/device/**", "../device", "../main", ...outsideFirmware],
              message: "firmware/ui is pure: it may import firmware/core and firmware/ui only (DESIGN.md 2).",
            },
          ],
        },
      ],
    },
  },
  {
    files: ["firmware/device/**/*.ts", "firmware/main.ts"],
    rules: {
      // require("neopixel") and require("Storage") are Espruino's built-in modules, not imports.
      "@typescript-eslint/no-require-imports": "off",
      "no-restricted-imports": [
        "error",
        { patterns: [{ group: outsideFirmware, message: "firmware never imports the simulator, tests or Node (DESIGN.md 2)." }] },
      ],
    },
  },
  {
    files: ["firmware/**/*.d.ts"],
    rules: { "@typescript-eslint/no-explicit-any": "off" },
  },
);
