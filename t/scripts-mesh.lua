-- scripts-mesh.lua - one --mesh rule in every script that takes it: a
-- number selects the mesh of that 1-based number, anything else the mesh
-- of exactly that name; a --mesh that selects nothing fails the bundle
-- (exit status 1, "no mesh X"), never a silent exit 0. Bundle A of
-- scripts-lib.lua: mesh 1 "quad", mesh 2 "strip".
local t = require "tap"
local lib = require "scripts-lib"

local dir = lib.inputs("A")

-- Each script: its arguments around --mesh, and what shows which meshes
-- it took (a file written, or its stdout).
local SCRIPTS = {
  { "obj-export", { "in/A.rsxb", "-o", "obj", "--per-mesh" },
    took = function(name) return lib.read(dir .. "/obj/A/" .. name
      .. ".obj") ~= nil end },
  { "gltf-export", { "in/A.rsxb", "-o", "gltf", "--per-mesh" },
    took = function(name) return lib.read(dir .. "/gltf/A/" .. name
      .. ".gltf") ~= nil end },
  { "info", { "in/A.rsxb" }, stdout = true },
  { "render", { "in/A.rsxb", "-o", "r.png", "--size", "8x8" },
    file = "r.png" },
  { "uv-layout", { "in/A.rsxb", "-o", "uv" } },
}

for _, s in ipairs(SCRIPTS) do
  local name = s[1]
  if not lib.has_script(name) then
    t.skip(5, "no " .. name)
    goto next
  end
  do
    local function run(...)
      local args = { table.unpack(s[2]) }
      for _, a in ipairs{ ... } do args[#args + 1] = a end
      return lib.rsxmesh(dir, name, table.unpack(args))
    end
    -- by number: 2 is strip, and only strip
    local status, out, err = run("--mesh", "2")
    t.is(status, 0, name .. " --mesh 2: exit status 0")
    if s.took then
      t.is_deeply({ s.took("strip"), s.took("quad") }, { true, false },
        name .. " --mesh 2: strip, the second mesh, and not quad")
    elseif s.stdout then
      t.ok(out:find("strip") and not out:find("quad"),
        name .. " --mesh 2: strip, the second mesh, and not quad")
    else
      t.ok(err:find("^" .. name:gsub("%-", "%%-") .. ": "), name
        .. " --mesh 2: a summary")
    end
    -- a name is exact: "qua" is no mesh (a pattern or a prefix would be)
    status, out, err = run("--mesh", "qua")
    t.is(status, 1, name .. " --mesh qua: exit status 1, not a silent 0")
    t.like(err, "in/A%.rsxb: no mesh qua\n", name
      .. " --mesh qua: says that no mesh is named so")
    -- a number past the meshes
    status, out, err = run("--mesh", "3")
    t.like(err, "in/A%.rsxb: no mesh 3\n", name .. " --mesh 3: no mesh 3")
  end
  ::next::
end

-- gltf-import: a number is the base's mesh of that number (the import
-- then matches it in the glTF by its name)
if lib.has_script("gltf-import") and lib.has_script("gltf-export") then
  local status = lib.rsxmesh(dir, "gltf-export", "in/A.rsxb", "-o", "g")
  t.is(status, 0, "gltf-export of A for the import")
  local out, err
  status, out, err = lib.rsxmesh(dir, "gltf-import", "g/A.gltf", "--base",
    "in/A.rsxb", "-o", "i2.rsxb", "--mesh", "2", "--report")
  t.is(status, 0, "gltf-import --mesh 2: exit status 0 (" .. err .. ")")
  t.is(out, "mesh 1 (quad): not selected\nmesh 2 (strip): unchanged\n",
    "gltf-import --mesh 2: strip, the second mesh, imported; quad not")
  status, _, err = lib.rsxmesh(dir, "gltf-import", "g/A.gltf", "--base",
    "in/A.rsxb", "-o", "i3.rsxb", "--mesh", "3")
  t.is(status, 1, "gltf-import --mesh 3: exit status 1")
  t.like(err, "in/A%.rsxb: no mesh 3\n", "gltf-import --mesh 3: no mesh 3")
else
  t.skip(5, "no gltf-import")
end

t.done_testing()
