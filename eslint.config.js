// ESLint: typescript-eslint's recommended rules, plus the layer rules of docs/design.md section 2.
import tseslint from "typescript-eslint";
import { createNodeResolver, importX } from "eslint-plugin-import-x";

/** A layer's files may import only what `refused` (a regular expression on the import's path) does not match. */
function layer(files, refused, message) {
  return {
    files,
    rules: { "no-restricted-imports": ["error", { patterns: [{ regex: refused, message: message + " (docs/design.md 2)" }] }] },
  };
}

export default tseslint.config(
  { ignores: ["dist/**", "node_modules/**", "test/gate/fixtures/**", "firmware/types/lib.espruino.d.ts", "sim/web/page/vendor/**"] },
  ...tseslint.configs.recommended,
  {
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
    },
  },
  {
    // No import circle anywhere: every module can be read (and tested) after the ones it imports.
    files: ["**/*.ts"],
    plugins: { "import-x": importX },
    settings: {
      "import-x/resolver-next": [createNodeResolver({ extensions: [".ts", ".js", ".d.ts"] })],
      // The rule follows imports into the files imported: they are TypeScript.
      "import-x/parsers": { "@typescript-eslint/parser": [".ts"] },
      "import-x/extensions": [".ts", ".js"],
    },
    rules: { "import-x/no-cycle": ["error", { ignoreExternal: true }] },
  },
  {
    // The bundle mangles property names (firmware/tools/mangle.ts): obj["name"] would not follow.
    files: ["firmware/**/*.ts"],
    rules: { "dot-notation": "error" },
  },
  // The layers (docs/design.md 2), one rule each: what a layer may import, everything else refused.
  layer(["firmware/core/**/*.ts"], "^(?!\\./)", "firmware/core is pure rules: it imports only firmware/core."),
  layer(
    ["firmware/ui/**/*.ts"],
    "^(?!\\./|\\.\\./core/|\\.\\./profile$|\\.\\./save-format$)",
    "firmware/ui is pure: it imports firmware/core, firmware/ui, the profile's type and the save format only.",
  ),
  layer(
    ["firmware/device/**/*.ts"],
    "^(?!\\./|\\.\\./profile$|\\.\\./save-format$|brainboard:profile$)",
    "firmware/device is the thin layer on Espruino's API: it imports firmware/device, the profile and the save format only (never the ui: main.ts wires them).",
  ),
  layer(["firmware/profile.ts", "firmware/save-format.ts"], ".", "The profile's type and the save format import nothing."),
  layer(
    ["firmware/main.ts"],
    "^(?!\\./(ui|device|core)/|\\./profile$|\\./save-format$|brainboard:profile$)",
    "firmware/main.ts wires the firmware's own layers only.",
  ),
  layer(["firmware/tools/**/*.ts"], "(^|/)(sim|test)/", "firmware/tools never imports the simulator or tests."),
  layer(
    ["hardware/**/*.ts"],
    "(^|/)(sim|test)/",
    "hardware is made from the profile data and firmware; it never imports the simulator or tests.",
  ),
  layer(["sim/**/*.ts"], "(^|/)test/", "the simulator never imports tests."),
  {
    // require("neopixel") and require("Storage") are Espruino's built-in modules, not imports.
    files: ["firmware/device/**/*.ts", "firmware/main.ts"],
    rules: { "@typescript-eslint/no-require-imports": "off" },
  },
  {
    files: ["firmware/**/*.d.ts"],
    rules: { "@typescript-eslint/no-explicit-any": "off" },
  },
);
