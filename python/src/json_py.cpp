// JSON <-> Python objects (bindings.hpp). Numbers keep their exact doubles both ways.
#include <cmath>
#include <limits>

#include "bindings.hpp"

namespace attnsvm::python {

py::object toPython(const json& j) {
  switch (j.type()) {
    case json::value_t::null:
      return py::none();
    case json::value_t::boolean:
      return py::bool_(j.get<bool>());
    case json::value_t::number_integer:
      return py::int_(j.get<std::int64_t>());
    case json::value_t::number_unsigned:
      return py::int_(j.get<std::uint64_t>());
    case json::value_t::number_float:
      return py::float_(j.get<double>());
    case json::value_t::string:
      return py::str(j.get_ref<const std::string&>());
    case json::value_t::array: {
      py::list out(j.size());
      for (std::size_t k = 0; k < j.size(); ++k) out[k] = toPython(j[k]);
      return std::move(out);
    }
    case json::value_t::object: {
      py::dict out;
      for (auto it = j.begin(); it != j.end(); ++it) out[py::str(it.key())] = toPython(it.value());
      return std::move(out);
    }
    default:
      return py::none();  // binary / discarded: never produced by the CLI
  }
}

namespace {
json fromDouble(double x) {
  // The CLI's reader reports non-finite numbers by name ("Y[1] is NaN"): hand them over as the
  // strings its text reader makes of NaN / Infinity (cli/json_io.hpp readJsonFile).
  if (std::isnan(x)) return "NaN";
  if (std::isinf(x)) return x > 0 ? "Infinity" : "-Infinity";
  return x;
}
}  // namespace

json fromPython(py::handle h, const std::string& what) {
  if (h.is_none()) return nullptr;
  if (PyBool_Check(h.ptr())) return h.cast<bool>();
  if (PyLong_Check(h.ptr())) {
    int overflow = 0;
    const long long v = PyLong_AsLongLongAndOverflow(h.ptr(), &overflow);
    if (overflow != 0) throw py::type_error(what + ": integer out of range");
    return v;
  }
  if (PyFloat_Check(h.ptr())) return fromDouble(PyFloat_AsDouble(h.ptr()));
  if (PyUnicode_Check(h.ptr())) return h.cast<std::string>();
  if (PyDict_Check(h.ptr())) {
    json out = json::object();
    for (auto item : py::reinterpret_borrow<py::dict>(h)) {
      if (!PyUnicode_Check(item.first.ptr()))
        throw py::type_error(what + ": keys must be strings, not " +
                             std::string(py::str(py::type::of(item.first).attr("__name__"))));
      const std::string key = item.first.cast<std::string>();
      out[key] = fromPython(item.second, what + "['" + key + "']");
    }
    return out;
  }
  if (PyList_Check(h.ptr()) || PyTuple_Check(h.ptr())) {
    json out = json::array();
    std::size_t k = 0;
    for (auto item : py::reinterpret_borrow<py::sequence>(h))
      out.push_back(fromPython(item, what + "[" + std::to_string(k++) + "]"));
    return out;
  }
  // numpy arrays and scalars, torch tensors: their Python values (float64 stays exact).
  if (py::hasattr(h, "tolist")) return fromPython(h.attr("tolist")(), what);
  if (py::hasattr(h, "__index__"))
    return fromPython(py::int_(py::reinterpret_borrow<py::object>(h)), what);
  if (py::hasattr(h, "__float__"))
    return fromPython(py::float_(py::reinterpret_borrow<py::object>(h)), what);
  throw py::type_error(what + ": cannot convert a " +
                       std::string(py::str(py::type::of(h).attr("__name__"))) +
                       " (expected numbers, lists, numpy arrays or dicts)");
}

}  // namespace attnsvm::python
