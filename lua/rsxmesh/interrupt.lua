-- rsxmesh/interrupt.lua - Control-C, which no protected call may keep
--
-- The host raises SIGINT as the error "interrupted!" at the next Lua
-- event, as lua.c does. A pcall that turns an error into the failure of
-- one input (a worker's state that does not load, a JSON parse error, a
-- UV layout that fails) would turn a Control-C that lands inside it into
-- one too, and the run would go on: every such pcall is interrupt.pcall.
--
--   local interrupt = require "rsxmesh.interrupt"
--   local ok, value = interrupt.pcall(decode, text) -- raises an interrupt

local interrupt = {}

-- True when message is the host's interrupt error.
function interrupt.is(message)
  return type(message) == "string" and message:find("interrupted!$") ~= nil
end

-- pcall(fn, ...), but an interrupt is raised again, not returned. An
-- interrupt that lands on pcall's own return is outside it and goes on
-- up by itself.
function interrupt.pcall(fn, ...)
  local r = table.pack(pcall(fn, ...))
  if not r[1] and interrupt.is(r[2]) then error(r[2], 0) end
  return table.unpack(r, 1, r.n)
end

-- Call fn(...) protected, an interrupt included: true, or false and the
-- error (fn's results are not kept: the callers need none). For the few
-- places that must clean up after an interrupt (rsxmesh.jobs) or stop the
-- run on one (run:each). When a C function has failed first (a read cut
-- short by the signal fails with EINTR), the interrupt's event is pcall's
-- own return, outside it, so a second pcall around the first catches it
-- there.
function interrupt.protect(fn, ...)
  local args = table.pack(...)
  return pcall(function()
    local ok, err = pcall(fn, table.unpack(args, 1, args.n))
    if not ok then error(err, 0) end
  end)
end

return interrupt
