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
    // One event path (issue 31; docs/decisions/0036-one-event-path.md): operations tell of an event
    // with `emit` (server/events/); only its machinery writes bell entries, e-mails and audit rows,
    // and only it and the mailer use the e-mail templates.
    files: ["server/**"],
    ignores: ["server/events/**", "server/mail/**", "server/services.ts", "server/context.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            { group: ["\\#app/*", "**/app/**"], message: "server/ never imports app/: shared types and rules live in core/." },
            {
              group: ["**/events/notify.ts", "**/mail/mailer.ts", "**/mail/templates/*"],
              message: "Tell of an event with emit (server/events/): declare it in server/events/registry.ts.",
            },
            {
              // refuseOwnRecord, its guard, is every operator action's own check.
              group: ["**/events/audit.ts"],
              importNames: ["recordOperatorAction"],
              message: "Tell of an event with emit (server/events/): declare it in server/events/registry.ts.",
            },
          ],
        },
      ],
      "no-restricted-syntax": [
        "error",
        ...[
          "CallExpression[callee.name='notify']",
          "CallExpression[callee.property.name='notify']",
          "CallExpression[callee.name='recordOperatorAction']",
          "CallExpression[callee.property.name='send'][callee.object.name='mailer']",
          "CallExpression[callee.property.name='send'][callee.object.property.name='mailer']",
        ].map((selector) => ({ selector, message: "Tell of an event with emit (server/events/): declare it in server/events/registry.ts." })),
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
