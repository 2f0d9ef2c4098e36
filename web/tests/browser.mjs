// End-to-end tests in Debian's Chromium, driven by playwright-core (the npm package without a
// browser download: it drives the installed /usr/bin/chromium over its DevTools protocol).
// Starts `fray serve` on a free loopback port with a fresh data folder, then: creates a match
// in the lobby, plays turns by clicking lit squares, sees each move arrive in the other seat's
// page, fails to act for the other seat, watches as a spectator, kills the server with SIGKILL,
// starts it again on the same folder and finds the match as it was. Then plays a whole Kazzam
// match against a bot by clicking, and a whole Draw Steel fight on a tablet-sized touch screen
// with the keyboard and taps, checking the dice tray and that every control has a label.
// Screenshots go to web/test-artifacts/. Prints "N passed, N failed" last.
//
// FRAY_BIN names the fray binary (default: target/debug/fray); CHROMIUM the browser.

import { chromium } from "playwright-core";
import { spawn } from "node:child_process";
import { mkdtempSync, mkdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, "..", "..");
const bin = process.env.FRAY_BIN ?? join(root, "target", "debug", "fray");
const browserPath = process.env.CHROMIUM ?? "/usr/bin/chromium";
const shots = join(here, "..", "test-artifacts");
mkdirSync(shots, { recursive: true });
const data = mkdtempSync(join(tmpdir(), "fray-browser-"));

let passed = 0, failed = 0;
function check(what, ok, detail = "") {
  if (ok) { passed++; console.log(`ok - ${what}`); }
  else { failed++; console.log(`FAILED - ${what} ${detail}`); }
}

/** Starts the server; resolves with the process and its address once it prints it. */
function serve(addr) {
  return new Promise((resolve, reject) => {
    const p = spawn(bin, ["serve", "--addr", addr, "--data", data], { stdio: ["ignore", "pipe", "inherit"] });
    let out = "";
    const timer = setTimeout(() => reject(new Error(`fray serve printed no address: ${out}`)), 60000);
    p.stdout.on("data", (b) => {
      out += b;
      const m = out.match(/serving at (http:\/\/[0-9.:]+)\//);
      if (m) { clearTimeout(timer); resolve({ proc: p, url: m[1] }); }
    });
    p.on("exit", (code) => reject(new Error(`fray serve ended (${code}): ${out}`)));
  });
}

const version = (page) => page.evaluate(() => Number(document.querySelector("#status")?.getAttribute("data-version") ?? -1));
const state = (page) => page.evaluate(async (t) => (await fetch(`/api/play/${t}`)).json(), tokenOf(page));
function tokenOf(page) { return new URL(page.url()).pathname.split("/").pop(); }

async function waitFor(fn, ms = 30000, what = "a condition") {
  const end = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Every control on the page without a name a screen reader could read. */
const unlabelled = (page) => page.evaluate(() => {
  const named = (e) => (e.getAttribute("aria-label") || e.textContent?.trim() || e.getAttribute("title")
    || (e.id && document.querySelector(`label[for="${e.id}"]`)?.textContent?.trim()) || e.closest("label")?.textContent?.trim());
  return [...document.querySelectorAll("button, select, input, [role=button], summary")].filter((e) => !named(e)).map((e) => e.outerHTML.slice(0, 80));
});

/**
 * Starts a match in the lobby (the first seat a person, the rest greedy bots) and plays the
 * person's seat to the end through the page: at a unit's action menu it tries an attack first,
 * then a move, then ends the turn; squares and targets are picked on the board. `how` is
 * "click" (the mouse) or "keys" (number keys for buttons, Enter on a focused square or target,
 * taps on a touch screen).
 */
async function wholeMatch({ system, options, seed, how, tablet = false }) {
  const started = Date.now();
  const ctx = await browser.newContext(tablet
    ? { viewport: { width: 768, height: 1024 }, hasTouch: true, isMobile: true, deviceScaleFactor: 1 }
    : { viewport: { width: 1280, height: 900 } });
  const page = await ctx.newPage();
  await page.goto(server.url + "/");
  await page.selectOption("#system", system);
  const seats = await page.locator("#seats select[data-seat]").evaluateAll((l) => l.map((e) => e.dataset.seat));
  for (const [i, name] of seats.entries()) await page.selectOption(`#seat-${name}`, i === 0 ? "person" : "bot:greedy");
  await page.fill("#options", options);
  await page.fill("#seed", String(seed));
  check(`${system}: every control in the lobby has a label`, (await unlabelled(page)).length === 0, JSON.stringify(await unlabelled(page)));
  await page.click("#create");
  const seatLink = page.locator("a.seat-link").first();
  await seatLink.waitFor();
  await seatLink.click();
  await page.waitForSelector("#board rect");
  const tried = new Set();
  let decisions = 0, byBoard = 0, labelsOk = true, arrowsOk = true, arrowMoves = 0;
  for (;;) {
    const s = await waitFor(async () => {
      const v = await state(page);
      return v.view.outcome || v.waiting === v.you.name ? v : null;
    }, 60000, `${system}: the person to be asked`);
    if (s.view.outcome) break;
    if (decisions > 400) throw new Error(`${system}: no end after ${decisions} decisions`);
    await waitFor(async () => (await version(page)) === s.version && (await page.locator("#options button[data-option]").count()) > 0, 15000, `${system}: the decision on the page`);
    if (decisions % 10 === 0 && (await unlabelled(page)).length) labelsOk = false;
    const d = s.view.decision, ids = d.options.map((o) => o.id);
    const key = `${s.view.round}/${d.unit}`;
    let pick = null;
    if (d.kind === "action") {
      const attack = ids.find((i) => /attack|strike|^ability:/.test(i) && !/opportun/.test(i));
      const move = ids.find((i) => i === "move" || i === "advance");
      if (attack && !tried.has(key + "a")) { pick = attack; tried.add(key + "a"); }
      else if (move && !tried.has(key + "m")) { pick = move; tried.add(key + "m"); }
      else pick = ids.includes("end-turn") ? "end-turn" : ids[ids.length - 1];
    }
    const before = s.version;
    const lit = page.locator("#board .lit"), target = page.locator("#board g.target");
    let onBoard = null;
    if (!pick && (await lit.count()) > 0) onBoard = lit.last();
    else if (!pick && (await target.count()) > 0) {
      // A unit of another side when one is offered.
      const foe = d.options.find((o) => s.view.units[o.id] && s.view.units[o.id].team !== s.you.name);
      const ring = foe ? page.locator(`#board g.target[data-unit="${foe.id}"]`) : target.first();
      onBoard = (await ring.count()) ? ring : target.first();
    }
    if (onBoard) {
      byBoard++;
      if (how === "click") await onBoard.click();
      else if (tablet && byBoard % 2) await onBoard.tap();
      else {
        // Tab-free keyboard play: focus a pick, walk the board with the arrow keys (they stay
        // on the picks), and press Enter on where the focus lands.
        await onBoard.focus();
        const mark = () => page.evaluate(() => { const a = document.activeElement; return a ? `${a.getAttribute("data-option") ?? ""}/${a.getAttribute("data-unit") ?? ""}` : ""; });
        const at = await mark();
        for (const k of ["ArrowLeft", "ArrowUp", "ArrowRight"]) await page.keyboard.press(k);
        const onPick = await page.evaluate(() => !!document.activeElement?.matches("#board .lit, #board g.target"));
        if (!onPick) arrowsOk = false;
        if ((await mark()) !== at) arrowMoves++;
        await page.keyboard.press("Enter");
      }
    } else {
      pick ??= ids.find((i) => i !== "cancel" && i !== "back") ?? ids[0];
      const buttons = await page.locator("#options button[data-option]").evaluateAll((l) => l.map((b) => b.dataset.option));
      const at = buttons.indexOf(pick);
      if (how === "keys" && at >= 0 && at < 9) await page.keyboard.press(String(at + 1));
      else await page.locator(`#options button[data-option="${pick}"]`).first().click();
    }
    decisions++;
    await waitFor(async () => (await state(page)).revision > s.revision, 15000, `${system}: the answer taken`);
    if (decisions === 6) await page.screenshot({ path: join(shots, `whole-${system}-playing.png`) });
  }
  const end = await state(page);
  await waitFor(async () => ((await page.textContent("#status")) ?? "").includes(end.view.outcome.summary), 10000, `${system}: the outcome on the page`).catch(() => {});
  await page.screenshot({ path: join(shots, `whole-${system}-over.png`), fullPage: true });
  const secs = ((Date.now() - started) / 1000).toFixed(1);
  check(`${system}: a whole match against a bot played to its end in the page (${decisions} decisions, ${byBoard} on the board, ${how}, ${secs} s): ${end.view.outcome.summary}`,
    decisions >= 5 && byBoard >= 1 && ((await page.textContent("#status")) ?? "").includes(end.view.outcome.summary));
  check(`${system}: every control of the match page had a label`, labelsOk);
  if (how === "keys") check(`${system}: the arrow keys moved the focus among the board's picks (${arrowMoves} times)`, arrowsOk && arrowMoves > 0);
  // The dice tray: the rolls as they came, faces shown, read out by a screen reader.
  const tray = await page.evaluate(() => ({
    live: document.querySelector("#dice")?.getAttribute("aria-live"),
    rolls: document.querySelectorAll("#dice li").length,
    faces: document.querySelectorAll("#dice .die").length,
    first: document.querySelector("#dice li")?.textContent ?? "",
  }));
  check(`${system}: the dice tray showed the rolls with their faces (${tray.rolls} rolls, ${tray.faces} dice; "${tray.first.slice(0, 80)}")`,
    tray.live === "polite" && tray.rolls > 0 && tray.faces > 0);
  if (tablet) {
    const fit = await page.evaluate(() => ({ page: document.documentElement.scrollWidth, board: document.querySelector("#board").getBoundingClientRect().right }));
    check(`${system}: on a 768-pixel tablet the page and board fit the width (${fit.page}, ${Math.round(fit.board)})`, fit.page <= 768 && fit.board <= 768);
  }
  await ctx.close();
}

let server = await serve("127.0.0.1:0");
const browser = await chromium.launch({ executablePath: browserPath, args: ["--no-sandbox", "--disable-gpu"] });
try {
  // The lobby: Kazzam, red and blue people, the neutral Creeps a bot.
  const lobby = await (await browser.newContext({ viewport: { width: 1400, height: 900 } })).newPage();
  await lobby.goto(server.url + "/");
  await lobby.selectOption("#system", "kazzam");
  await lobby.selectOption("#seat-red", "person");
  await lobby.selectOption("#seat-blue", "person");
  await lobby.fill("#seed", "11");
  await lobby.click("#create");
  await lobby.waitForSelector("a.seat-link[data-seat=blue]");
  const link = async (sel) => server.url + (await lobby.getAttribute(sel, "href"));
  const links = { red: await link("a.seat-link[data-seat=red]"), blue: await link("a.seat-link[data-seat=blue]"), watch: await link("a.spectator-link") };
  await lobby.screenshot({ path: join(shots, "lobby.png") });
  check("the lobby creates a match and shows a link per person and one to watch", !!links.red && !!links.blue && !!links.watch);

  const pages = {};
  for (const k of ["red", "blue", "watch"]) {
    pages[k] = await (await browser.newContext({ viewport: { width: 1400, height: 1000 } })).newPage();
    await pages[k].goto(links[k]);
    await pages[k].waitForSelector("#board rect");
  }

  // Play: whoever is asked clicks a lit square when the board offers one, else an option
  // button (preferring "move", which lights squares); the other seat's page must update.
  let squares = 0, updates = 0, refusals = 0, spectatorRefused = false;
  for (let turn = 0; turn < 40 && squares < 4; turn++) {
    const asked = await waitFor(async () => {
      for (const k of ["red", "blue"]) if ((await state(pages[k])).waiting === k) return k;
      return null;
    }, 60000, "a person to be asked");
    const me = pages[asked], other = pages[asked === "red" ? "blue" : "red"];
    await waitFor(async () => (await me.locator("#board .lit, #options button").count()) > 0, 10000, "the decision on the page");
    const before = await version(other);
    // The other seat is offered nothing, and the server refuses it.
    check(`${asked === "red" ? "blue" : "red"} sees no options on ${asked}'s decision`, (await other.locator("#board .lit, #options button[data-option]").count()) === 0);
    const opt = await me.locator("#options button[data-option]").first().getAttribute("data-option");
    const refusal = await other.evaluate(async (o) => { const r = await fetch(location.pathname.replace("/play/", "/api/play/"), { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ choose: o }) }); return r.status; }, opt);
    if (refusal === 409) refusals++;
    if (!spectatorRefused) {
      const s = await pages.watch.evaluate(async (o) => (await fetch(location.pathname.replace("/play/", "/api/play/"), { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ choose: o }) })).status, opt);
      spectatorRefused = s === 403 && (await pages.watch.locator("#options button, #board .lit").count()) === 0;
    }
    if ((await me.locator("#board .lit").count()) > 0) {
      await me.locator("#board .lit").first().click();
      squares++;
      if (squares === 1) await me.screenshot({ path: join(shots, `clicked-square-${asked}.png`) });
    } else {
      const move = me.locator('#options button[data-option="move"]');
      await ((await move.count()) ? move : me.locator("#options > button[data-option]").last()).click();
    }
    await waitFor(async () => (await version(other)) > before, 15000, "the update on the other seat's page").then(() => updates++, () => {});
  }
  check("a person played turns by clicking lit squares", squares >= 4, `(${squares})`);
  check("every move reached the other seat's page over its WebSocket", updates >= squares, `(${updates})`);
  check("a seat's answer for the other seat is refused", refusals >= 4, `(${refusals})`);
  check("the spectator has no controls and its answer is refused", spectatorRefused);
  // Undo: a choice that rolls no die ("move" asks where to) is taken back with the button.
  {
    let done = false;
    for (let tries = 0; tries < 20 && !done; tries++) {
      const asked = await waitFor(async () => { for (const k of ["red", "blue"]) if ((await state(pages[k])).waiting === k) return k; return null; }, 60000, "a person to be asked");
      const me = pages[asked];
      await waitFor(async () => (await me.locator("#board .lit, #options button[data-option]").count()) > 0, 10000, "the decision on the page");
      const v0 = await version(me);
      if ((await me.locator('#options button[data-option="move"]').count()) === 0) {
        // Not at a unit's action menu: answer and look again.
        if ((await me.locator("#board .lit").count()) > 0) await me.locator("#board .lit").first().click();
        else await me.locator("#options > button[data-option]").last().click();
        await waitFor(async () => (await version(me)) > v0, 15000, "the answer").catch(() => {});
        continue;
      }
      await me.locator('#options button[data-option="move"]').click();
      await me.waitForSelector("#undo", { timeout: 10000 });
      await me.screenshot({ path: join(shots, `undo-offered-${asked}.png`) });
      await me.click("#undo");
      const back = await waitFor(async () => (await version(me)) === v0, 10000, "the undo").then(() => true, () => false);
      check("a seat undoes its own last choice with the Undo button", back);
      done = true;
    }
    if (!done) check("a seat undoes its own last choice with the Undo button (no move was offered)", false);
  }
  for (const k of ["red", "blue", "watch"]) await pages[k].screenshot({ path: join(shots, `before-kill-${k}.png`) });
  check("the spectator's page follows the match", (await version(pages.watch)) === (await version(pages.red)));

  // Kill -9 and restart on the same folder and port: the match is as it was.
  const saw = await state(pages.red);
  server.proc.kill("SIGKILL");
  await new Promise((r) => server.proc.once("exit", r));
  const port = new URL(server.url).port;
  server = await serve(`127.0.0.1:${port}`);
  const again = await waitFor(async () => { try { return await state(pages.red); } catch { return null; } }, 20000, "the server back");
  check("after kill -9 the match is held with every input", again.version === saw.version && JSON.stringify(again.view) === JSON.stringify(saw.view), `(${saw.version} -> ${again.version})`);
  await pages.red.reload();
  await pages.red.waitForSelector("#board rect");
  await pages.red.screenshot({ path: join(shots, "after-restart-red.png") });
  check("the page shows the resumed match", (await version(pages.red)) === saw.version);
  // And it plays on.
  const asked = await waitFor(async () => { for (const k of ["red", "blue"]) if ((await state(pages[k])).waiting === k) return k; return null; }, 60000, "a person to be asked");
  await pages[asked].reload();
  await waitFor(async () => (await pages[asked].locator("#board .lit, #options button").count()) > 0, 10000, "the options");
  const v0 = await version(pages[asked]);
  if ((await pages[asked].locator("#board .lit").count()) > 0) await pages[asked].locator("#board .lit").first().click();
  else await pages[asked].locator("#options > button[data-option]").first().click();
  await waitFor(async () => (await version(pages[asked])) > v0, 15000, "the answer taken").then(() => check("the resumed match plays on", true), () => check("the resumed match plays on", false));

  // Whole matches against a bot, to their end: Kazzam by clicking (a low target score and a
  // round limit end it in a few rounds) and a Draw Steel fight on a tablet-sized touch screen,
  // its buttons answered with the number keys and its board with taps and Enter.
  await wholeMatch({ system: "kazzam", options: "target-score=1, match-end=immediate, round-limit=3, creeps=false", seed: 5, how: "click" });
  await wholeMatch({ system: "drawsteel", options: "round-limit=2", seed: 5, how: "keys", tablet: true });
} catch (e) {
  check("the browser run finished", false, String(e?.stack ?? e));
} finally {
  await browser.close();
  server.proc.kill("SIGKILL");
  rmSync(data, { recursive: true, force: true });
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
