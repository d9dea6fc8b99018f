/** Launching the browser tests' Chromium (see chromium-setup.ts for where it comes from). */
import { type Browser, chromium } from 'playwright-core';
import { inject } from 'vitest';

/** A headless Chromium as the machine allows it: as root, no sandbox; no background traffic (the network is closed). */
export function launchChromium(): Promise<Browser> {
  const fonts = inject('chromiumFonts');
  return chromium.launch({
    executablePath: inject('chromium'),
    headless: true,
    env: { ...process.env, ...(fonts ? { FONTCONFIG_PATH: fonts } : {}) },
    args: [
      '--no-sandbox',
      '--no-zygote',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}
