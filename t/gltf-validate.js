// t/gltf-validate.js - run the Khronos glTF validator over files, for tests.
//
// node t/gltf-validate.js [--all] FILE.gltf|FILE.glb...
//
// For each file, one line `FILE: N errors, N warnings, N infos, N hints`,
// then one line per error and warning (with --all, infos and hints too):
// `  error CODE /pointer: message`. Buffers and images the file refers to
// are loaded relative to it, so a missing .bin or texture is an error.
// Exit status: 0 when no file has an error, 1 when one has, 2 when a file
// could not be read or the validator refused it (neither glTF nor GLB).

'use strict';

const fs = require('fs');
const path = require('path');
const validator = require('gltf-validator');

const SEVERITY = ['error', 'warning', 'info', 'hint'];

function loader(file) {
  // URIs are relative to the asset and percent-encoded (glTF 2.0, URIs).
  return (uri) => new Promise((resolve, reject) => {
    const where = path.resolve(path.dirname(file), decodeURIComponent(uri));
    fs.readFile(where, (err, data) => {
      if (err) reject(err.toString());
      else resolve(new Uint8Array(data));
    });
  });
}

async function validate(file, all) {
  const bytes = new Uint8Array(fs.readFileSync(file));
  const report = await validator.validateBytes(bytes, {
    uri: path.basename(file),
    maxIssues: 0,
    writeTimestamp: false,
    externalResourceFunction: loader(file),
  });
  const n = report.issues;
  console.log(`${file}: ${n.numErrors} errors, ${n.numWarnings} warnings, ` +
              `${n.numInfos} infos, ${n.numHints} hints`);
  for (const m of n.messages) {
    if (all || m.severity <= 1) {
      console.log(`  ${SEVERITY[m.severity]} ${m.code} ` +
                  `${m.pointer || '-'}: ${m.message}`);
    }
  }
  return n.numErrors;
}

async function main(argv) {
  const all = argv.includes('--all');
  const files = argv.filter((a) => a !== '--all');
  if (files.length === 0) {
    console.error('usage: node gltf-validate.js [--all] FILE...');
    return 2;
  }
  let status = 0;
  for (const file of files) {
    try {
      if (await validate(file, all) > 0) status = Math.max(status, 1);
    } catch (e) {
      console.log(`${file}: not validated: ${e}`);
      status = 2;
    }
  }
  return status;
}

main(process.argv.slice(2)).then((status) => { process.exitCode = status; });
