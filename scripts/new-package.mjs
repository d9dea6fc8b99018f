// `pnpm new-package <name> "<description>"`: a new package in packages/<name>, copied from
// templates/package (the shape every package here has), with its name and description filled in.
import { cpSync, existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const root = resolve(new URL('.', import.meta.url).pathname, '..');
const [name, description = 'A raider tools package.'] = process.argv.slice(2);
if (!name || !/^[a-z][a-z0-9-]*$/.test(name)) {
  console.error('usage: pnpm new-package <name> "<description>" (name: lowercase letters, digits and -)');
  process.exit(2);
}
const target = join(root, 'packages', name);
if (existsSync(target)) {
  console.error(`packages/${name} exists already`);
  process.exit(2);
}
cpSync(join(root, 'templates', 'package'), target, { recursive: true });
const fill = (dir) => {
  for (const entry of readdirSync(dir)) {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) fill(path);
    else
      writeFileSync(
        path,
        readFileSync(path, 'utf8').replaceAll('__NAME__', name).replaceAll('__DESCRIPTION__', description),
      );
  }
};
fill(target);
console.log(`packages/${name} created. Next: pnpm install, then pnpm --filter @raider/${name} test, and a changeset.`);
