// Starts `flow lsp` for .flow files: diagnostics as `flow check` gives
// them, hover with an operator's lanes, completion, symbols, formatting.
const { workspace } = require('vscode');
const { LanguageClient } = require('vscode-languageclient/node');

let client;

function activate() {
  const command = workspace.getConfiguration('flow').get('path') || 'flow';
  client = new LanguageClient('flow', 'flow', { command, args: ['lsp'] }, {
    documentSelector: [{ language: 'flow' }],
  });
  return client.start();
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
