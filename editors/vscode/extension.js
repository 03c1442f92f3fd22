// Starts `flow lsp` for .flow files: diagnostics as `flow check` gives
// them, hover with an operator's lanes (as text and as a picture), completion, symbols, formatting.
const { workspace } = require('vscode');
const { LanguageClient } = require('vscode-languageclient/node');

let client;

function activate() {
  const command = workspace.getConfiguration('flow').get('path') || 'flow';
  client = new LanguageClient('flow', 'flow', { command, args: ['lsp'] }, {
    documentSelector: [{ language: 'flow' }],
    // VS Code draws a markdown image with a data: URI in a hover, so the
    // server may add its SVG of the lanes after a hover's text.
    initializationOptions: { hoverImages: true },
  });
  return client.start();
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
