-- Headless Neovim (Debian's) attaches `flow lsp` to a script with an error,
-- then writes the diagnostics it received and a hover to standard output.
--   FLOW_BINARY=.build/debug/flow FLOW_SCRIPT=broken.flow nvim --headless -u NONE -c 'luafile editors/tests/neovim_lsp.lua'
local flow = os.getenv('FLOW_BINARY') or 'flow'
local script = assert(os.getenv('FLOW_SCRIPT'), 'FLOW_SCRIPT names the script to open')

vim.cmd('edit ' .. vim.fn.fnameescape(script))
local buffer = vim.api.nvim_get_current_buf()
vim.bo[buffer].filetype = 'flow'
local client = vim.lsp.start_client({ name = 'flow', cmd = { flow, 'lsp' }, root_dir = vim.fn.fnamemodify(script, ':p:h') })
vim.lsp.buf_attach_client(buffer, client)

vim.wait(60000, function() return #vim.diagnostic.get(buffer) > 0 end, 50)
for _, diagnostic in ipairs(vim.diagnostic.get(buffer)) do
  io.stdout:write(string.format('diagnostic %d:%d %s\n', diagnostic.lnum + 1, diagnostic.col + 1, diagnostic.message))
end

-- The hover on the operator of the third line (`map`).
local params = { textDocument = { uri = vim.uri_from_bufnr(buffer) }, position = { line = 2, character = 21 } }
for _, answer in pairs(vim.lsp.buf_request_sync(buffer, 'textDocument/hover', params, 60000) or {}) do
  if answer.result then
    io.stdout:write('hover ' .. (answer.result.contents.value:gsub('\n', ' | ')) .. '\n')
  end
end
vim.lsp.stop_client(client)
vim.cmd('qa!')
