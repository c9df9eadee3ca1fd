-- rsxmesh/font.lua - a small built-in bitmap font for labels in images
--
--   local font = require "rsxmesh.font"
--   font.draw(img, 5, 5, "1234", 2, { 255, 255, 255 }, { 0, 0, 0 })
--
-- Digits and a few signs, 3 x 5 font pixels each, a font pixel drawn as a
-- scale x scale square; the contact sheets of `rsxmesh render --sheet`
-- number their cells with it.

local font = {}

font.WIDTH, font.HEIGHT = 3, 5

local GLYPHS = {
  ["0"] = { "###", "#.#", "#.#", "#.#", "###" },
  ["1"] = { ".#.", "##.", ".#.", ".#.", "###" },
  ["2"] = { "###", "..#", "###", "#..", "###" },
  ["3"] = { "###", "..#", ".##", "..#", "###" },
  ["4"] = { "#.#", "#.#", "###", "..#", "..#" },
  ["5"] = { "###", "#..", "###", "..#", "###" },
  ["6"] = { "###", "#..", "###", "#.#", "###" },
  ["7"] = { "###", "..#", "..#", "..#", "..#" },
  ["8"] = { "###", "#.#", "###", "#.#", "###" },
  ["9"] = { "###", "#.#", "###", "..#", "###" },
  ["-"] = { "...", "...", "###", "...", "..." },
  ["."] = { "...", "...", "...", "...", ".#." },
  [" "] = { "...", "...", "...", "...", "..." },
}

-- Fill the w x h box at (x, y) (1-based, top-left), clipped to img.
local function box(img, x, y, w, h, c)
  for yy = math.max(y, 1), math.min(y + h - 1, img.height) do
    for xx = math.max(x, 1), math.min(x + w - 1, img.width) do
      img:set(xx, yy, c[1], c[2], c[3], c[4] or 255)
    end
  end
end

-- The size in image pixels of text drawn at scale, its margin included.
function font.size(text, scale)
  return (#text * (font.WIDTH + 1) + 1) * scale, (font.HEIGHT + 2) * scale
end

-- Draw text with its box's top-left at (x, y): a box of bg (if given), one
-- font pixel of margin, then the glyphs in colour. A character the font
-- lacks is drawn as a full block. Returns the box's width and height.
function font.draw(img, x, y, text, scale, colour, bg)
  local w, h = font.size(text, scale)
  if bg then box(img, x, y, w, h, bg) end
  for k = 1, #text do
    local g = GLYPHS[text:sub(k, k)]
    local gx = x + ((k - 1) * (font.WIDTH + 1) + 1) * scale
    for row = 1, font.HEIGHT do
      for col = 1, font.WIDTH do
        if not g or g[row]:sub(col, col) == "#" then
          box(img, gx + (col - 1) * scale, y + row * scale, scale, scale,
            colour)
        end
      end
    end
  end
  return w, h
end

return font
