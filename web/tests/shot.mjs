// Screenshots a page for a person to look at: node web/tests/shot.mjs URL OUT.png [WIDTH HEIGHT]
import { chromium } from "playwright-core";
const [url, out, w = "1400", h = "1000"] = process.argv.slice(2);
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium", args: ["--no-sandbox", "--disable-gpu"] });
const page = await (await browser.newContext({ viewport: { width: Number(w), height: Number(h) } })).newPage();
await page.goto(url);
await page.waitForTimeout(1500);
await page.screenshot({ path: out, fullPage: true });
await browser.close();
