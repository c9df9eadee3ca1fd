-- t/gltf-edit.lua - a test's gltf-export of a bundle, edited as an editor
-- would and imported back (t/gltf-import-names.lua, -colours.lua):
--
--   local edit = require "gltf-edit"
--   local g = edit.export(t, tmp, base, "gltf-export of ...")  -- a check
--   local path = g.write("dir", function(doc, bin) ... return bin end)
--   local code, out, err = g.import(path, "out.rsxb")         -- --report
--
-- base is a bundle file; tmp the test's folder, where the export goes
-- (g/NAME.gltf and .bin) and each edit (DIR/NAME.gltf and .bin).

local cjson = require "cjson"
local lfs = require "lfs"
local lib = require "scripts-lib"

local edit = {}

-- Export base into tmp/g, as check t names. The export's JSON text and
-- buffer (text, bin), write(dir, change) (change(doc, bin) edits the
-- decoded JSON in place and returns the buffer's new bytes; the file's
-- path is returned) and import(gltf, out) (gltf-import onto base, into
-- tmp/out, with --report: lib.rsxmesh's code, stdout, stderr).
function edit.export(t, tmp, base, what)
  local name = base:match("([^/]+)%.rsxb$")
  local code, _, err = lib.rsxmesh(tmp, "gltf-export", base, "-o",
    tmp .. "/g")
  t.is(code, 0, what)
  if code ~= 0 then t.diag(err) end
  local g = { text = assert(lib.read(tmp .. "/g/" .. name .. ".gltf")),
    bin = assert(lib.read(tmp .. "/g/" .. name .. ".bin")) }
  function g.write(dir, change)
    local doc = cjson.decode(g.text)
    local bin = change(doc, g.bin)
    local file = tmp .. "/" .. dir .. "/" .. name
    assert(lfs.mkdir(tmp .. "/" .. dir))
    lib.write(file .. ".gltf", cjson.encode(doc))
    lib.write(file .. ".bin", bin)
    return file .. ".gltf"
  end
  function g.import(gltf, out)
    return lib.rsxmesh(tmp, "gltf-import", gltf, "--base", base, "-o",
      tmp .. "/" .. out, "--report")
  end
  return g
end

return edit
