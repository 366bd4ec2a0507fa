// The hol extension: starts `hol lsp` for Isabelle theories (.thy) and passes the `hol.*`
// settings to it, at start (initializationOptions) and on every change
// (workspace/didChangeConfiguration, through `synchronize.configurationSection`).
'use strict';

const vscode = require('vscode');
const { LanguageClient } = require('vscode-languageclient/node');

let client;

/** The `hol.*` settings the server reads (it ignores `path`, which is ours). */
function settings() {
  const config = vscode.workspace.getConfiguration('hol');
  return {
    timeout: config.get('timeout'),
    debounce: config.get('debounce'),
    tester: config.get('tester') ?? null,
    seed: config.get('seed') ?? null,
  };
}

async function activate(context) {
  const command = vscode.workspace.getConfiguration('hol').get('path') || 'hol';
  const serverOptions = { command, args: ['lsp'] };
  const clientOptions = {
    documentSelector: [{ language: 'isabelle' }],
    initializationOptions: settings(),
    synchronize: { configurationSection: 'hol' },
  };
  client = new LanguageClient('hol', 'hol', serverOptions, clientOptions);
  context.subscriptions.push(client);
  await client.start();
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
