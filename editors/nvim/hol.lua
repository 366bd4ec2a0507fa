-- hol lsp in Neovim (0.8 or later: vim.lsp.start). Put this file on 'runtimepath'
-- (e.g. ~/.config/nvim/plugin/hol.lua) or `require` it from init.lua.
--
-- Neovim 0.7 has no vim.lsp.start: there, start the client once with
-- vim.lsp.start_client{...} with the same fields and attach each buffer with
-- vim.lsp.buf_attach_client(0, id), as hol/tests/nvim/client.lua does.

vim.filetype.add({ extension = { thy = 'isabelle' } })

vim.api.nvim_create_autocmd('FileType', {
  pattern = 'isabelle',
  callback = function(args)
    vim.lsp.start({
      name = 'hol',
      cmd = { 'hol', 'lsp' },
      root_dir = vim.fs.dirname(vim.api.nvim_buf_get_name(args.buf)),
      -- Settings: seconds per quickcheck run, the pause before testing, a tester for
      -- every run (nil: as the theory says), the random tester's seed.
      init_options = { timeout = 2, debounce = 50 },
    })
  end,
})
