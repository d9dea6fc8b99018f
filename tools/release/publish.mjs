// The publish step of .github/workflows/release.yml (changesets/action's `publish:`), run from
// the repository's root: build every package, publish every public package whose version the
// registry does not have yet, then tag the new versions.
//
//   node tools/release/publish.mjs
//
// `pnpm publish -r` rather than `changeset publish` because of provenance: pnpm 12 publishes by
// itself and makes a provenance statement only when given `--provenance`; it reads neither
// NPM_CONFIG_PROVENANCE nor `provenance` in .npmrc or publishConfig (each tried against a local
// registry: published without one). So NPM_CONFIG_PROVENANCE=true, which the workflow sets, is
// turned into the flag here (outside GitHub Actions pnpm then refuses to publish:
// ERR_PNPM_PROVENANCE_UNSUPPORTED_PROVIDER). `changeset tag` then tags each new version and prints
// the `New tag:` lines changesets/action reads to push the tags and write the GitHub releases.
// The release test (pnpm test:release) runs this script as the workflow does, against a registry
// on loopback.
import { spawnSync } from 'node:child_process';

const provenance = /^(true|1)$/i.test(process.env.NPM_CONFIG_PROVENANCE ?? process.env.npm_config_provenance ?? '');

/** Runs a command with this process's output; exits with its code when it fails. */
function run(command, args) {
  console.log(`> ${command} ${args.join(' ')}`);
  const done = spawnSync(command, args, { stdio: 'inherit' });
  if (done.status !== 0) {
    console.error(`${command} ${args.join(' ')} exited ${done.status ?? done.signal}`);
    process.exit(done.status ?? 1);
  }
}

run('pnpm', ['build']);
run('pnpm', ['publish', '-r', '--access', 'public', '--no-git-checks', ...(provenance ? ['--provenance'] : [])]);
run('pnpm', ['changeset', 'tag']);
