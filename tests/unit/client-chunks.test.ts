import type { ManualChunkMeta, ModuleInfo } from "rollup";
import { describe, expect, it } from "vitest";
import { shellChunks } from "../../server/web/client-chunks.ts";

interface FakeModule {
  imports?: string[];
  code?: string;
  /** Rollup left it out of the build: an index whose re-exports it resolved, or unused code. */
  excluded?: boolean;
}

/** A client build's module graph as Rollup's manualChunks sees it, from each module's imports. */
function graph(modules: Record<string, FakeModule>): ManualChunkMeta {
  const importers = new Map<string, string[]>();
  for (const [id, module] of Object.entries(modules))
    for (const imported of module.imports ?? []) importers.set(imported, [...(importers.get(imported) ?? []), id]);
  return {
    getModuleIds: () => Object.keys(modules)[Symbol.iterator](),
    getModuleInfo: (id) => {
      const module = modules[id];
      if (!module) return null;
      return {
        id,
        code: module.code ?? "",
        isIncluded: !module.excluded,
        importers: importers.get(id) ?? [],
        importedIds: module.imports ?? [],
      } as unknown as ModuleInfo;
    },
  };
}

const ENTRY = "/p/node_modules/@react-router/dev/dist/config/defaults/entry.client.tsx";
const ROOT = "/p/app/root.tsx";
const REACT = "/p/node_modules/react/index.js";
const HELPERS = "\0commonjsHelpers.js";
const ICONS = "/p/node_modules/lucide-react/dist/esm/lucide-react.mjs";
const BELL = "/p/node_modules/lucide-react/dist/esm/icons/bell.mjs";
const TRASH = "/p/node_modules/lucide-react/dist/esm/icons/trash.mjs";
const MAKE_ICON = "/p/node_modules/lucide-react/dist/esm/createLucideIcon.mjs";
const RADIX = "/p/node_modules/radix-ui/dist/index.mjs";
const SLOT = "/p/node_modules/@radix-ui/react-slot/dist/index.mjs";
const DIALOG = "/p/node_modules/@radix-ui/react-dialog/dist/index.mjs";
const ROUTER = "/p/node_modules/react-router/dist/production/index.mjs";
const ROUTER_CHUNK = "/p/node_modules/react-router/dist/production/chunk-r.mjs";
const ROUTER_RSC = "/p/node_modules/react-router/dist/production/chunk-rsc.mjs";

const modules: Record<string, FakeModule> = {
  [ENTRY]: { imports: [REACT] },
  [ROOT]: { imports: [REACT, "/p/app/components/header.tsx", "/p/app/lib/a.ts", "/p/app/lib/unused.ts"] },
  [REACT]: { imports: [HELPERS] },
  [HELPERS]: {},
  "/p/app/components/header.tsx": {
    imports: [REACT, ICONS, RADIX, ROUTER],
    code: 'import { BellIcon } from "lucide-react";\nimport { Slot as SlotPrimitive } from "radix-ui";\nimport { Link } from "react-router";',
  },
  // An index that imports its names and exports them in a list (React Router's); the entry
  // imports React Router's DOM part only dynamically, so the root's Link is the chunk's way in.
  [ROUTER]: {
    excluded: true,
    imports: [ROUTER_CHUNK, ROUTER_RSC],
    code: 'import {\n  Link as L,\n  useHref\n} from "./chunk-r.mjs";\nimport { ServerRouter } from "./chunk-rsc.mjs";\nexport {\n  L as Link,\n  ServerRouter,\n  useHref\n};',
  },
  [ROUTER_CHUNK]: { imports: [REACT] },
  [ROUTER_RSC]: { imports: [REACT] },
  [ICONS]: {
    excluded: true,
    imports: [BELL, TRASH],
    code: "\"use strict\";\nexport { default as Bell, default as BellIcon } from './icons/bell.mjs';\nexport { default as Trash } from './icons/trash.mjs';",
  },
  [BELL]: { imports: [MAKE_ICON] },
  [TRASH]: { imports: [MAKE_ICON] },
  [MAKE_ICON]: { imports: [REACT] },
  [RADIX]: {
    excluded: true,
    imports: [SLOT, DIALOG],
    code: 'import * as Dialog from "@radix-ui/react-dialog";\nimport * as Slot from "@radix-ui/react-slot";\nexport { Dialog, Slot };',
  },
  [SLOT]: { imports: [REACT] },
  [DIALOG]: { imports: [REACT, SLOT] },
  // A cycle the root reaches, and one module in the build but imported by nothing that is.
  "/p/app/lib/a.ts": { imports: ["/p/app/lib/b.ts"] },
  "/p/app/lib/b.ts": { imports: ["/p/app/lib/a.ts"] },
  "/p/app/lib/unused.ts": { excluded: true, imports: ["/p/app/lib/only-unused.ts"] },
  "/p/app/lib/only-unused.ts": {},
  // Pages: what only some of them load stays where Rollup puts it.
  "/p/app/routes/my-gigs.tsx": {
    imports: [ICONS, RADIX, "/p/app/components/ui/badge.tsx"],
    code: 'import { Trash } from "lucide-react";\nimport { Dialog } from "radix-ui";',
  },
  "/p/app/routes/gig.tsx": { imports: ["/p/app/components/ui/badge.tsx", "/p/app/lib/b.ts", "/p/app/components/gig-card.tsx"] },
  "/p/app/components/ui/badge.tsx": { imports: [REACT] },
  // Public pages: what two of them load goes into one file, through an index only what they take.
  "/p/app/routes/browse-gigs.tsx": {
    imports: ["/p/app/components/gig-card.tsx", "/p/app/components/filters.tsx"],
  },
  "/p/app/components/gig-card.tsx": {
    imports: [REACT, ICONS, "/p/app/lib/gig-facts.ts"],
    code: 'import { Trash } from "lucide-react";',
  },
  "/p/app/lib/gig-facts.ts": {},
  "/p/app/components/filters.tsx": { imports: [REACT] },
};

describe("the client build's shell chunks (server/web/client-chunks.ts)", () => {
  const chunkOf = (id: string) => shellChunks()(id, graph(modules));

  it("puts what the entry or the root imports, directly or not, in the shell: libraries apart from our code", () => {
    expect(chunkOf("/p/app/components/header.tsx")).toBe("shell");
    expect(chunkOf("/p/app/lib/a.ts")).toBe("shell");
    expect(chunkOf("/p/app/lib/b.ts")).toBe("shell");
    for (const library of [REACT, HELPERS, MAKE_ICON]) expect(chunkOf(library)).toBe("shell-libraries");
  });

  it("follows an index of re-exports only to what a page-wide module takes from it", () => {
    expect(chunkOf(BELL)).toBe("shell-libraries");
    expect(chunkOf(SLOT)).toBe("shell-libraries");
    expect(chunkOf(ROUTER_CHUNK)).toBe("shell-libraries");
    expect(chunkOf(ROUTER_RSC)).toBeUndefined();
    // In the same indexes, but only a signed-in page imports the dialog.
    expect(chunkOf(DIALOG)).toBeUndefined();
  });

  it("leaves the entries, what only some pages load and what is not in the build where Rollup puts them", () => {
    for (const id of [
      ENTRY,
      ROOT,
      "/p/app/routes/my-gigs.tsx",
      "/p/app/components/ui/badge.tsx",
      "/p/app/lib/unused.ts",
      "/p/app/lib/only-unused.ts",
      ICONS,
      RADIX,
    ]) {
      expect(chunkOf(id), id).toBeUndefined();
    }
  });

  it("puts what two or more public pages load, and the shell does not, in one chunk", () => {
    // The gig page and Browse Gigs both load the card, what it imports, and the icon it takes from the index.
    for (const id of ["/p/app/components/gig-card.tsx", "/p/app/lib/gig-facts.ts", TRASH]) expect(chunkOf(id), id).toBe("public");
    // One public page only (Browse Gigs' filters), or a signed-in page with one public page (the badge: My Gigs and the gig page).
    expect(chunkOf("/p/app/components/filters.tsx")).toBeUndefined();
    expect(chunkOf("/p/app/components/ui/badge.tsx")).toBeUndefined();
    // The public pages themselves stay entries.
    expect(chunkOf("/p/app/routes/browse-gigs.tsx")).toBeUndefined();
  });

  it("answers the same whichever module Rollup asks about first (a cycle does not hide the root)", () => {
    const chunks = shellChunks();
    const meta = graph(modules);
    expect(chunks("/p/app/lib/b.ts", meta)).toBe("shell");
    expect(chunks("/p/app/lib/a.ts", meta)).toBe("shell");
    expect(chunks(DIALOG, meta)).toBeUndefined();
    expect(chunks(BELL, meta)).toBe("shell-libraries");
  });
});
