/**
 * Two builds' pages, pixel by pixel: each page of the demo data shot at 375 and 1280 px (full
 * page) from one build, then from the other, on the same embedded database, and compared. For
 * changes that must not change what a page looks like (a stylesheet or markup refactor).
 *
 *   npx tsx bench/screens.ts --before build-base --build build --out /tmp/screens
 *
 * Writes OUT/before/<page>-<width>.png, OUT/after/<page>-<width>.png and OUT/diff.txt; prints the pages that differ and how
 * many pixels. Signed-in pages use the README's demo accounts.
 */
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import sharp from "sharp";
import { chromium, type Browser, type Page } from "playwright-core";
import { chromePath } from "./lib/lighthouse.ts";
import { projectRoot, startServer } from "./lib/server.ts";

const argv = process.argv.slice(2);
const option = (name: string) => {
  const i = argv.indexOf(name);
  return i >= 0 ? argv[i + 1] : undefined;
};
const builds = [option("--before") ?? "build-base", option("--build") ?? "build"];
const out = path.resolve(option("--out") ?? path.join(tmpdir(), "dg-screens"));
const only = option("--pages")?.split(",");
const PASSWORD = "digsandgigs-demo";

type Who = "visitor" | "consumer" | "digger" | "operator";
interface Shot {
  name: string;
  who: Who;
  /** A path, or a function of the page (signed in) that finds one. */
  path: string | ((page: Page, base: string) => Promise<string>);
  /** What to do once the page has hydrated, before the shot. */
  act?: (page: Page) => Promise<void>;
}

const firstLink = (from: string, pattern: string) => async (page: Page, base: string) => {
  await page.goto(base + from);
  const href = await page.locator(`a[href^="${pattern}"]`).first().getAttribute("href");
  if (!href) throw new Error(`no ${pattern} link on ${from}`);
  return href;
};
const click = (name: string) => async (page: Page) => {
  await page.getByRole("button", { name, exact: true }).first().click();
  await page.waitForTimeout(800);
};

const shots: Shot[] = [
  { name: "home", who: "visitor", path: "/" },
  { name: "browse-gigs", who: "visitor", path: "/browse-gigs" },
  { name: "gig", who: "visitor", path: firstLink("/browse-gigs", "/gig/") },
  { name: "browse-diggers", who: "visitor", path: "/browse-diggers" },
  { name: "digger", who: "visitor", path: firstLink("/browse-diggers", "/digger/") },
  { name: "contact", who: "visitor", path: "/contact" },
  { name: "contact-errors", who: "visitor", path: "/contact", act: click("Send Message") },
  { name: "how-it-works", who: "visitor", path: "/how-it-works" },
  { name: "auth", who: "visitor", path: "/auth" },
  { name: "auth-errors", who: "visitor", path: "/auth", act: click("Sign In") },
  { name: "digger-registration", who: "visitor", path: "/digger-registration" },
  { name: "not-found", who: "visitor", path: "/no-such-page" },
  { name: "c-home", who: "consumer", path: "/" },
  { name: "c-my-gigs", who: "consumer", path: "/my-gigs" },
  { name: "c-post-gig", who: "consumer", path: "/post-gig" },
  { name: "c-post-gig-errors", who: "consumer", path: "/post-gig", act: click("Post Gig") },
  { name: "c-gig-diggers", who: "consumer", path: firstLink("/my-gigs", "/my-gigs/") },
  { name: "c-diggers-dialog", who: "consumer", path: "/my-gigs", act: click("Diggers") },
  { name: "c-issues-dialog", who: "consumer", path: "/my-gigs", act: click("View Issues") },
  { name: "c-messages", who: "consumer", path: "/messages" },
  { name: "c-thread", who: "consumer", path: firstLink("/messages", "/messages/") },
  { name: "c-notifications", who: "consumer", path: "/notifications" },
  {
    name: "c-bell",
    who: "consumer",
    path: "/browse-diggers",
    act: async (page) => {
      await page.getByRole("button", { name: /notifications/i }).first().click();
      await page.waitForTimeout(800);
    },
  },
  { name: "c-account", who: "consumer", path: "/account" },
  { name: "d-browse-gigs", who: "digger", path: "/browse-gigs" },
  { name: "d-gig", who: "digger", path: firstLink("/browse-gigs", "/gig/") },
  { name: "d-my-leads", who: "digger", path: "/my-leads" },
  { name: "d-messages", who: "digger", path: "/messages" },
  { name: "d-thread", who: "digger", path: firstLink("/messages", "/messages/") },
  { name: "d-account", who: "digger", path: "/account" },
  { name: "d-profile", who: "digger", path: "/digger-registration" },
  { name: "o-ops", who: "operator", path: "/ops" },
  { name: "o-users", who: "operator", path: "/ops/users" },
  { name: "o-gigs", who: "operator", path: "/ops/gigs" },
  { name: "o-verification", who: "operator", path: "/ops/verification" },
  { name: "o-payments", who: "operator", path: "/ops/payments" },
  { name: "o-messages", who: "operator", path: "/ops/messages" },
  { name: "o-reviews", who: "operator", path: "/ops/reviews" },
  { name: "o-audit", who: "operator", path: "/ops/audit" },
];

const WIDTHS = [375, 1280];

async function shoot(browser: Browser, base: string, dir: string) {
  mkdirSync(dir, { recursive: true });
  const emails: Record<Exclude<Who, "visitor">, string> = {
    consumer: "consumer@example.com",
    digger: "digger@example.com",
    operator: "operator@example.com",
  };
  for (const width of WIDTHS) {
    for (const who of ["visitor", "consumer", "digger", "operator"] as Who[]) {
      const context = await browser.newContext({ viewport: { width, height: 900 }, reducedMotion: "reduce" });
      if (who !== "visitor") {
        const answer = await context.request.post(`${base}/api/auth/sign-in/email`, {
          data: { email: emails[who], password: PASSWORD },
          headers: { origin: base },
        });
        if (!answer.ok()) throw new Error(`sign-in as ${who}: ${answer.status()}`);
      }
      const page = await context.newPage();
      for (const shot of shots.filter((s) => s.who === who && (!only || only.includes(s.name)))) {
        try {
          const target = typeof shot.path === "string" ? shot.path : await shot.path(page, base);
          await page.goto(base + target, { waitUntil: "load" });
          await page.waitForSelector("html[data-hydrated]", { state: "attached" });
          await page.evaluate("document.fonts.ready");
          if (shot.act) await shot.act(page);
          // Times ("3 minutes ago") and the bell's live count differ between runs; hide neither:
          // a difference there shows in the list and is read by eye.
          await page.screenshot({ path: path.join(dir, `${shot.name}-${width}.png`), fullPage: true, animations: "disabled", caret: "hide" });
        } catch (error) {
          console.error(`${shot.name} at ${width}: ${(error as Error).message.split("\n")[0]}`);
        }
      }
      await context.close();
    }
  }
}

async function compare(a: string, b: string): Promise<string> {
  try {
    const [x, y] = await Promise.all([sharp(a).raw().toBuffer({ resolveWithObject: true }), sharp(b).raw().toBuffer({ resolveWithObject: true })]);
    if (x.info.width !== y.info.width || x.info.height !== y.info.height)
      return `size ${x.info.width}x${x.info.height} -> ${y.info.width}x${y.info.height}`;
    let differing = 0;
    const channels = x.info.channels;
    for (let i = 0; i < x.data.length; i += channels) {
      for (let c = 0; c < channels; c++)
        if (x.data[i + c] !== y.data[i + c]) {
          differing++;
          break;
        }
    }
    return differing === 0 ? "same" : `${differing} pixels`;
  } catch (error) {
    return `missing (${(error as Error).message})`;
  }
}

/** Each build's shots: OUT/before and OUT/after (two builds' folders may have the same name). */
const shotsDir = (build: string) => path.join(out, build === builds[0] ? "before" : "after");
if (path.resolve(builds[0]!) === path.resolve(builds[1]!)) throw new Error("screens: --before and --build name the same build");

const dataDir = mkdtempSync(path.join(tmpdir(), "dg-screens-db-"));
const browser = await chromium.launch({ executablePath: chromePath() ?? "/usr/bin/chromium", args: ["--no-sandbox", "--disable-gpu", "--font-render-hinting=none"] });
try {
  // One database for both builds: seeded once, then each build gets a fresh copy of it (visiting
  // the notifications marks them read), so that both show the same rows.
  const seeded = `${dataDir}-seeded`;
  await (await startServer({ kind: "pglite", dataDir: seeded }, path.resolve(projectRoot, builds[0]!), { SEED_DEMO_DATA: "true" })).stop();
  for (const build of builds) {
    rmSync(dataDir, { recursive: true, force: true });
    cpSync(seeded, dataDir, { recursive: true });
    const server = await startServer({ kind: "pglite", dataDir }, path.resolve(projectRoot, build));
    try {
      await shoot(browser, server.url, shotsDir(build));
    } finally {
      await server.stop();
    }
  }
  rmSync(seeded, { recursive: true, force: true });
  const lines: string[] = [];
  for (const shot of shots.filter((s) => !only || only.includes(s.name)))
    for (const width of WIDTHS) {
      const file = `${shot.name}-${width}.png`;
      const verdict = await compare(path.join(shotsDir(builds[0]!), file), path.join(shotsDir(builds[1]!), file));
      lines.push(`${verdict === "same" ? "  " : "! "}${file}: ${verdict}`);
    }
  writeFileSync(path.join(out, "diff.txt"), lines.join("\n") + "\n");
  console.log(lines.join("\n"));
} finally {
  await browser.close();
  rmSync(dataDir, { recursive: true, force: true });
}
