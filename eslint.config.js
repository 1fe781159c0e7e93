import js from "@eslint/js";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import tseslint from "typescript-eslint";

const EVENT_MESSAGE = "Tell of an event with emit (server/events/): declare it in server/events/registry.ts.";
/** What only emit does: tell (bell, e-mail, audit). */
const TELLING = [
  "CallExpression[callee.name='notify']",
  "CallExpression[callee.property.name='notify']",
  "CallExpression[callee.name='recordOperatorAction']",
  "CallExpression[callee.property.name='send'][callee.object.name='mailer']",
  "CallExpression[callee.property.name='send'][callee.object.property.name='mailer']",
].map((selector) => ({ selector, message: EVENT_MESSAGE }));
/**
 * What only emit, the job queue's own module and the mailer's and push's delivery do (issue 46):
 * start a job, send a live update. An operation declares its jobs and live updates with its event.
 */
const STARTING = [
  "CallExpression[callee.property.name=/^(send|sendMany)$/][callee.object.name='jobs']",
  "CallExpression[callee.property.name=/^(send|sendMany)$/][callee.object.property.name='jobs']",
  "CallExpression[callee.name='publishLive']",
].map((selector) => ({ selector, message: "Declare the event's jobs and live updates in server/events/registry.ts, and emit it." }));
/** Where jobs are started and live updates sent by hand: the event module, the queue, the mailer's and push's own delivery, the live hub. */
const STARTERS = ["server/events/**", "server/jobs/**", "server/mail/mailer.ts", "server/push/send.ts", "server/live/**"];

/** What app/ may not write: each has one way through the app's own module (the app/** block). */
const APP_SYNTAX = [
  {
    selector: "ImportDeclaration[source.value='react-router'] ImportSpecifier[imported.name=/^(Link|NavLink)$/]",
    message: "Link and NavLink from app/components/link.tsx (drawn directly on the server).",
  },
  {
    selector: "ImportDeclaration[source.value='lucide-react']",
    message: "Draw icons from app/components/icons.tsx (lucide's drawings, made once).",
  },
  {
    selector: "ImportDeclaration[source.value='sonner'] ImportSpecifier[imported.name='toast']",
    message: "Show toasts through app/lib/toasts.ts.",
  },
  {
    // Times in the reader's zone (issue 47, decision 0071): the server writes every time as
    // text (server/reader-time.ts); a page formats none, so hydration changes nothing.
    selector: "ImportDeclaration[source.value=/(relative-time|zoned-dates)\\.ts$/]",
    message: "The browser formats no time: send the text from the server (server/reader-time.ts).",
  },
  {
    selector: "ImportDeclaration[source.value=/core\\/dates\\.ts$/] ImportSpecifier[imported.name=/^(dayIn|startOfDayIn)$/]",
    message: "The browser formats no time: send the text from the server (server/reader-time.ts).",
  },
];

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
    // Icons from app/components/icons.tsx, links from app/components/link.tsx (issue 52).
    files: ["app/**"],
    ignores: ["app/lib/toasts.ts", "app/components/icons.tsx", "app/components/link.tsx"],
    rules: {
      "no-restricted-syntax": ["error", ...APP_SYNTAX],
    },
  },
  {
    // A loader's or action's address is its `url` argument: its `request` is the request as it
    // came (future.v8_passThroughRequests, docs/decisions/0085-pass-through-requests.md), whose
    // address is /page.data?_routes=… on a client navigation.
    files: ["app/routes/**"],
    rules: {
      "no-restricted-syntax": [
        "error",
        ...APP_SYNTAX,
        {
          selector: "MemberExpression[property.name='url'][object.name='request'], MemberExpression[property.name='url'][object.property.name='request']",
          message: "Read the page's address from the loader's or action's `url`, not `request.url`.",
        },
      ],
    },
  },
  {
    // One route adapter (docs/decisions/0044-one-shape-per-operation.md): a route serves its
    // operation with serveLoader/serveAction/serveIntents (server/web/operations.ts), which alone
    // runs it through runLoader/runAction.
    files: ["app/routes/**", "app/*.ts", "app/*.tsx"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              group: ["\\#server/web/respond.ts", "**/server/web/respond.ts"],
              importNames: ["runLoader", "runAction"],
              message: "Serve an operation with serveLoader/serveAction/serveIntents (server/web/operations.ts).",
            },
          ],
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
              // The route adapter (web/operations.ts, "./respond.ts") alone runs operations through them.
              group: ["**/web/respond.ts"],
              importNames: ["runLoader", "runAction"],
              message: "Serve an operation with serveLoader/serveAction/serveIntents (server/web/operations.ts).",
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
      "no-restricted-syntax": ["error", ...TELLING, ...STARTING],
    },
  },
  {
    // The starters may start jobs and send live updates, and still never tell by hand.
    files: STARTERS,
    ignores: ["server/events/**", "server/mail/**"],
    rules: { "no-restricted-syntax": ["error", ...TELLING] },
  },
  {
    // The mail area tells (it is the mailer), and starts no job but its own delivery.
    files: ["server/mail/**"],
    ignores: STARTERS,
    rules: { "no-restricted-syntax": ["error", ...STARTING] },
  },
  {
    files: ["tests/**"],
    rules: {
      "no-restricted-syntax": [
        "error",
        {
          // expect(promise).rejects attaches its handler only when the matcher is called: an await in the
          // matcher's arguments leaves a rejection unhandled meanwhile, which fails the whole run.
          selector: "CallExpression[callee.object.property.name=/^(rejects|resolves)$/] > .arguments AwaitExpression",
          message: "Read the expected value before expect(promise).rejects/resolves, not inside the matcher's arguments.",
        },
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
