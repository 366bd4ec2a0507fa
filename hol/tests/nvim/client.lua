-- A scripted Neovim session for hol/tests/nvim.rs: starts `hol lsp` as Neovim's own LSP
-- client does, opens a theory, waits for the diagnostics, optionally edits a line, and
-- writes what the server published (the raw LSP diagnostics of the buffer's latest version)
-- as JSON to $HOL_NVIM_OUT. Written for Neovim 0.7 (Debian's), which has
-- vim.lsp.start_client and buf_attach_client but not vim.lsp.start.
--
-- Environment: HOL_BIN (the binary), HOL_NVIM_FILE (the theory), HOL_NVIM_OUT,
-- HOL_NVIM_COUNT (how many diagnostics the first text should get), and for an edit
-- HOL_NVIM_EDIT_LINE (0-based), HOL_NVIM_EDIT_TEXT, HOL_NVIM_EDIT_COUNT.

local env = vim.env
local published = {} -- version -> diagnostics
local result = { error = vim.NIL }

local function finish()
  local out = io.open(env.HOL_NVIM_OUT, 'w')
  out:write(vim.fn.json_encode(result))
  out:close()
  vim.cmd('qall!')
end

local client_id = vim.lsp.start_client({
  name = 'hol',
  cmd = { env.HOL_BIN, 'lsp' },
  root_dir = vim.fn.fnamemodify(env.HOL_NVIM_FILE, ':h'),
  -- The same answers as `hol check --seed 1` (whose runs may take 10 s each).
  init_options = { seed = 1, timeout = 10, debounce = 0 },
  handlers = {
    ['textDocument/publishDiagnostics'] = function(_, params)
      if params.version ~= nil then
        published[params.version] = params.diagnostics
      end
    end,
  },
})
if client_id == nil then
  result.error = 'hol lsp did not start'
  finish()
end

vim.cmd('edit ' .. vim.fn.fnameescape(env.HOL_NVIM_FILE))
local buf = vim.api.nvim_get_current_buf()
vim.lsp.buf_attach_client(buf, client_id)

-- Waits until the buffer's current version has `count` diagnostics; returns them.
local function settle(count, what)
  local latest
  local ok = vim.wait(120000, function()
    local version = vim.lsp.util.buf_versions[buf]
    latest = published[version]
    return latest ~= nil and #latest == count
  end, 20)
  if not ok then
    result.error = string.format('%s: no publication of %d diagnostics in time; last: %s', what, count,
      vim.fn.json_encode(latest or {}))
    finish()
  end
  return latest
end

result.first = settle(tonumber(env.HOL_NVIM_COUNT), 'the file as opened')
if env.HOL_NVIM_EDIT_LINE ~= nil then
  local line = tonumber(env.HOL_NVIM_EDIT_LINE)
  vim.api.nvim_buf_set_lines(buf, line, line + 1, false, { env.HOL_NVIM_EDIT_TEXT })
  result.edited = settle(tonumber(env.HOL_NVIM_EDIT_COUNT), 'the edited file')
end
vim.lsp.stop_client(client_id)
finish()
