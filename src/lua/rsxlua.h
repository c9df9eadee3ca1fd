/* rsxlua.h - placeholder until the binding is written */
