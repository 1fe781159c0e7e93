import js from "@eslint/js";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import tseslint from "typescript-eslint";

export default tseslint.config(
  { ignores: ["build/", "build-*/", "data/", ".react-router/", "node_modules/", "test-results/", "playwright-report/"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    plugins: { "react-hooks": reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      "@typescript-eslint/consistent-type-imports": "error",
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
    },
  },
  {
    // The browser bundle must never pull in server code: routes reach it only in loaders and actions.
    files: ["app/components/**", "app/features/**", "app/lib/**", "core/**"],
    rules: {
      "no-restricted-imports": [
        "error",
        { patterns: [{ group: ["#server/*", "**/server/**"], message: "Server code stays on the server." }] },
      ],
    },
  },
  {
    files: ["core/**"],
    rules: {
      "no-restricted-imports": [
        "error",
        { patterns: [{ group: ["#server/*", "#app/*", "**/server/**", "**/app/**"], message: "core/ depends on nothing." }] },
      ],
    },
  },
);
