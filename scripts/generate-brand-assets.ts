/**
 * Renders the committed brand images from public/brand/logo.svg with Chromium (run it again after
 * changing the logo): public/favicon.ico (16, 32 and 48 px PNGs in an ICO container) and
 * public/brand/og.png (the 1200×630 Open Graph image).
 *   npx tsx scripts/generate-brand-assets.ts
 */
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { chromium } from "@playwright/test";
import { DEBIAN_CHROMIUM, findChromium } from "./find-chromium";

const root = path.resolve(import.meta.dirname, "..");
const logo = readFileSync(path.join(root, "public/brand/logo.svg"), "utf8");

const OG_HTML = `<!doctype html><html><body style="margin:0;width:1200px;height:630px;display:flex;align-items:center;justify-content:center;background:#f7f7f5;font-family:'DejaVu Sans',system-ui,sans-serif;color:#1d1d1b">
<div style="display:flex;align-items:center;gap:56px">
  <div style="width:260px;height:260px">${logo.replace(/width="64" height="64"/, 'width="260" height="260"')}</div>
  <div><div style="font-size:112px;font-weight:700;letter-spacing:-2px">team<span style="color:#c2571a">mem</span></div>
  <div style="font-size:38px;color:#6b6b66;margin-top:12px">The team hub for Claude Code memory</div></div>
</div></body></html>`;

const { executablePath } = findChromium({ env: {}, systemPath: DEBIAN_CHROMIUM, playwrightPath: () => chromium.executablePath(), install: () => false });
const browser = await chromium.launch({ executablePath, args: ["--no-sandbox", "--disable-gpu"] });
try {
  const page = await browser.newPage({ viewport: { width: 1200, height: 630 } });
  await page.setContent(OG_HTML);
  writeFileSync(path.join(root, "public/brand/og.png"), await page.screenshot({ type: "png" }));

  const icons: { size: number; png: Buffer }[] = [];
  for (const size of [16, 32, 48]) {
    await page.setViewportSize({ width: size, height: size });
    await page.setContent(`<body style="margin:0;background:transparent">${logo.replace(/width="64" height="64"/, `width="${size}" height="${size}"`)}</body>`);
    icons.push({ size, png: await page.screenshot({ type: "png", omitBackground: true }) });
  }
  writeFileSync(path.join(root, "public/favicon.ico"), icoFromPngs(icons));
} finally {
  await browser.close();
}

// ICO: a 6-byte header, one 16-byte entry per image, then the images; PNG payloads are allowed.
function icoFromPngs(images: { size: number; png: Buffer }[]): Buffer {
  const header = Buffer.alloc(6);
  header.writeUInt16LE(0, 0);
  header.writeUInt16LE(1, 2); // 1 = icon
  header.writeUInt16LE(images.length, 4);
  let offset = 6 + 16 * images.length;
  const entries = images.map(({ size, png }) => {
    const entry = Buffer.alloc(16);
    entry.writeUInt8(size, 0);
    entry.writeUInt8(size, 1);
    entry.writeUInt16LE(1, 4); // colour planes
    entry.writeUInt16LE(32, 6); // bits per pixel
    entry.writeUInt32LE(png.length, 8);
    entry.writeUInt32LE(offset, 12);
    offset += png.length;
    return entry;
  });
  return Buffer.concat([header, ...entries, ...images.map((image) => image.png)]);
}
