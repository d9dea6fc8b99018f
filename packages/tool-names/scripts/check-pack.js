// Packs the package the way it is published and imports it from an empty project with
// nothing else installed: what a user gets from `npm install @raider/tool-names`.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const dir = mkdtempSync(join(tmpdir(), 'tool-names-pack-'));
try {
  execFileSync('pnpm', ['pack', '--pack-destination', dir], { stdio: 'ignore' });
  const tarball = readdirSync(dir).find((f) => f.endsWith('.tgz'));
  if (!tarball) throw new Error(`pnpm pack wrote no tarball into ${dir}`);
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'empty-project', private: true, type: 'module' }));
  execFileSync('npm', ['install', '--no-audit', '--no-fund', '--offline', join(dir, tarball)], {
    cwd: dir,
    stdio: 'ignore',
  });
  const probe = `
    import { raiderName, claudeInput } from '@raider/tool-names';
    const ok = raiderName('Read') === 'read_file' && claudeInput('read_file', { path: 'a' }).file_path === 'a';
    if (!ok) { console.error('unexpected answers from the packed package'); process.exit(1); }
  `;
  writeFileSync(join(dir, 'probe.mjs'), probe);
  execFileSync('node', ['probe.mjs'], { cwd: dir, stdio: 'inherit' });
  console.log(`packed ${tarball} and imported it from an empty project`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
