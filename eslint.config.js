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
        { patterns: [{ group: ["\\#server/*", "**/server/**"], message: "Server code stays on the server." }] },
      ],
    },
  },
  {
    // Features are one area's pieces: what two areas share lives in app/components/ or core/.
    files: ["app/features/**"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            { group: ["\\#server/*", "**/server/**"], message: "Server code stays on the server." },
            { group: ["\\#app/features/*", "../*"], message: "Features do not import each other: share through app/components/ or core/." },
          ],
        },
      ],
    },
  },
  {
    // One way to show a toast (app/lib/toasts.ts): it knows which messages a toast says right now.
    files: ["app/**"],
    ignores: ["app/lib/toasts.ts"],
    rules: {
      "no-restricted-syntax": [
        "error",
        {
          selector: "ImportDeclaration[source.value='sonner'] ImportSpecifier[imported.name='toast']",
          message: "Show toasts through app/lib/toasts.ts.",
        },
      ],
    },
  },
  {
    files: ["server/**"],
    rules: {
      "no-restricted-imports": [
        "error",
        { patterns: [{ group: ["\\#app/*", "**/app/**"], message: "server/ never imports app/: shared types and rules live in core/." }] },
      ],
    },
  },
  {
    files: ["core/**"],
    rules: {
      "no-restricted-imports": [
        "error",
        { patterns: [{ group: ["\\#server/*", "\\#app/*", "**/server/**", "**/app/**"], message: "core/ depends on nothing." }] },
      ],
    },
  },
);
