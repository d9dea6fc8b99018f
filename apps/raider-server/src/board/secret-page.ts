/**
 * The page a browser gets from the board without its secret (a second browser, a private window,
 * a server restarted with a new secret, a mistyped `?token=`): a 401 that tells the person what to
 * do, where an API client keeps its JSON error. It never holds the secret: it says where to find
 * it (the URL the server printed at start) and how to pass it.
 */
import type { ServerResponse } from 'node:http';
import type { SecretPage } from '../http/guard.js';

/** The page's heading, also its title. */
export const SECRET_PAGE_TITLE = 'This board needs its secret';

/** What the page says, paragraph by paragraph, as plain text (the page escapes it). */
export function secretPageText(page: SecretPage): string[] {
  const why = page.wrongToken
    ? "The token in this address is not the board's secret."
    : "This browser did not send the board's secret. Opened once, the board's URL keeps the secret in a cookie of this browser; another browser, a private window, or a server restarted with a new secret lands here.";
  const secret = page.tokenGiven
    ? 'The secret is the token the server was started with (--token or RAIDER_TOKEN).'
    : 'The server made the secret at start, and makes a new one at every start: after a restart only the URL it printed then works. Start the server with --token to keep one secret across restarts.';
  return [
    'The board shows every task list and answers questions, so it asks for a secret.',
    why,
    'Open the URL the server printed on its standard error when it started, the line "raider-server info: the board: http://…/?token=…"; or add the secret to this address yourself, as /?token= followed by the secret.',
    secret,
  ];
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (char) => ESCAPES[char] as string);

/** The whole page: the heading and the paragraphs of secretPageText, with no script. */
export function secretPageHtml(page: SecretPage): string {
  const paragraphs = secretPageText(page).map((text) => `    <p>${escapeHtml(text)}</p>`);
  return [
    '<!doctype html>',
    '<html lang="en">',
    '  <head>',
    '    <meta charset="utf-8" />',
    '    <meta name="viewport" content="width=device-width, initial-scale=1" />',
    `    <title>raider board: ${escapeHtml(SECRET_PAGE_TITLE)}</title>`,
    '    <style>body{font:16px/1.5 system-ui,sans-serif;max-width:40rem;margin:2rem auto;padding:0 1rem}</style>',
    '  </head>',
    '  <body>',
    '    <main>',
    `    <h1>${escapeHtml(SECRET_PAGE_TITLE)}</h1>`,
    ...paragraphs,
    '    </main>',
    '  </body>',
    '</html>',
    '',
  ].join('\n');
}

/**
 * Answers the page: 401, not cached, no script allowed, `WWW-Authenticate: Bearer` as for any
 * request without the token.
 */
export function answerSecretPage(res: ServerResponse, page: SecretPage): void {
  if (res.headersSent) return;
  res.writeHead(401, {
    'content-type': 'text/html; charset=utf-8',
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
    'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'",
    'www-authenticate': 'Bearer',
  });
  res.end(secretPageHtml(page));
}
