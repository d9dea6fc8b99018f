// The page a browser gets from the board without its secret: what it says, word for word, and that it is inert.
import { describe, expect, it } from 'vitest';
import { SECRET_PAGE_TITLE, secretPageHtml, secretPageText } from './secret-page.js';

describe("the board's secret page", () => {
  it('says why it is shown and what to do: open the URL printed at start, or pass ?token=', () => {
    const made = secretPageText({ tokenGiven: false, wrongToken: false });
    expect(made).toEqual([
      'The board shows every task list and answers questions, so it asks for a secret.',
      "This browser did not send the board's secret. Opened once, the board's URL keeps the secret in a cookie of this browser; another browser, a private window, or a server restarted with a new secret lands here.",
      'Open the URL the server printed on its standard error when it started, the line "raider-server info: the board: http://…/?token=…"; or add the secret to this address yourself, as /?token= followed by the secret.',
      'The server made the secret at start, and makes a new one at every start: after a restart only the URL it printed then works. Start the server with --token to keep one secret across restarts.',
    ]);
    const given = secretPageText({ tokenGiven: true, wrongToken: true });
    expect(given[1]).toBe("The token in this address is not the board's secret.");
    expect(given[3]).toBe('The secret is the token the server was started with (--token or RAIDER_TOKEN).');
    expect(given[2]).toBe(made[2]);
  });

  it('is a whole page, escaped, without a script', () => {
    const html = secretPageHtml({ tokenGiven: false, wrongToken: false });
    expect(html.startsWith('<!doctype html>\n<html lang="en">')).toBe(true);
    expect(html).toContain(`<title>raider board: ${SECRET_PAGE_TITLE}</title>`);
    expect(html).toContain(`<h1>${SECRET_PAGE_TITLE}</h1>`);
    expect(html).toContain(
      '<p>Open the URL the server printed on its standard error when it started, the line &quot;raider-server info: the board: http://…/?token=…&quot;; or add the secret to this address yourself, as /?token= followed by the secret.</p>',
    );
    expect(html).toContain('<p>This browser did not send the board&#39;s secret.');
    expect(html).not.toContain('<script');
  });
});
