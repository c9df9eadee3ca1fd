# luarocks.mk - what `luarocks make` runs (rsxmesh-scm-1.rockspec, build
# type make): the project's own Autotools build, so that the file lists live
# once, in the *.am fragments. It installs the module rsxmesh.so, the Lua
# helpers (rsxmesh.cli, ...) and the standard scripts as modules
# (rsxmesh.scripts.NAME, with synth's textures beside them). The host
# rsxmesh and its man page are make install's: the host bakes in its
# folders at build time, and luarocks moves files after the build.

# luarocks passes CFLAGS, LUA_INCDIR (build) and LIBDIR, LUADIR (install).
# lfs and cjson are the rockspec's dependencies, which luarocks resolves
# itself.
ROCK_CONFIGURE = ./configure --without-readline rsx_cv_lua_lfs=yes \
	rsx_cv_lua_cjson=yes \
	CFLAGS='$(CFLAGS)' LUA_CFLAGS='-I$(LUA_INCDIR)' LUA_LIBS=-llua5.4
ROCK_DIRS = luaexecdir='$(LIBDIR)' luadir='$(LUADIR)' \
	scriptsdir='$(LUADIR)/rsxmesh/scripts'
ROCK_INSTALL = install-luaexecLTLIBRARIES install-dist_rsxmeshluaDATA \
	install-dist_rsxmeshsynthDATA install-dist_scriptsDATA \
	install-dist_synthtexturesDATA install-dist_rsxmeshgltfimportDATA

# A tree already configured (a developer's) keeps its configuration.
all:
	test -f configure || autoreconf -fi
	test -f Makefile || $(ROCK_CONFIGURE)
	$(MAKE) -f Makefile rsxmesh.la

install:
	$(MAKE) -f Makefile $(ROCK_DIRS) $(ROCK_INSTALL)
	rm -f '$(LIBDIR)/rsxmesh.la'

.PHONY: all install
