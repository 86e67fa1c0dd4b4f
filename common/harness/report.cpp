#include "common/harness/report.hpp"

#include <algorithm>
#include <cstdarg>
#include <cstdio>
#include <fstream>

#ifndef LADDER_CXX_FLAGS
#define LADDER_CXX_FLAGS "unknown flags"
#endif

namespace ladder {
namespace {

const char* role_name(Role role) {
  switch (role) {
    case Role::baseline: return "baseline";
    case Role::stage: return "stage";
    case Role::ceiling: return "ceiling";
    case Role::transfer: return "transfer";
  }
  return "?";
}

// RFC 4180: a field with a comma or a quote is quoted, its quotes doubled.
std::string csv_field(const std::string& text) {
  if (text.find_first_of(",\"\n") == std::string::npos) return text;
  std::string quoted = "\"";
  for (const char c : text) quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
  return quoted + "\"";
}

// printf, appending to a string.
[[gnu::format(printf, 2, 3)]] void append(std::string& out, const char* format, ...) {
  va_list args;
  va_start(args, format);
  va_list measure;
  va_copy(measure, args);
  const int size = std::vsnprintf(nullptr, 0, format, measure);
  va_end(measure);
  const std::size_t end = out.size();
  out.resize(end + size + 1);
  std::vsnprintf(&out[end], size + 1, format, args);
  va_end(args);
  out.resize(end + size);
}

// The header line that says what the L2 cache held when each timed run began.
std::string l2_line(const std::vector<Measurement>& rows) {
  for (const auto& row : rows) {
    if (row.l2 == "flushed") return "L2 cache flushed before every timed run (--l2 flushed)\n";
    if (row.l2 == "warm") return "L2 cache warm: left as the previous run left it (--l2 warm)\n";
  }
  return "";
}

}  // namespace

struct Report::Rows {
  std::string stage;
  std::string problem;
  std::string device;
  std::vector<Measurement> rows;

  // The first ceiling row of a unit: every "% ceiling" refers to it.
  const Measurement* ceiling(const std::string& unit) const {
    for (const auto& row : rows) {
      if (row.role == Role::ceiling && row.unit == unit) return &row;
    }
    return nullptr;
  }

  // What "vs base" compares a row with: the nearest baseline row above it (so a stage that
  // runs the previous stage's kernel in several layouts pairs each layout with its own), or,
  // in a stage with no baseline, its first variant.
  const Measurement* baseline_for(std::size_t row) const {
    const std::string& unit = rows[row].unit;
    for (std::size_t i = row + 1; i-- > 0;) {
      if (rows[i].role == Role::baseline && rows[i].unit == unit) return &rows[i];
    }
    for (const auto& candidate : rows) {
      if (candidate.role == Role::stage && candidate.unit == unit) return &candidate;
    }
    return nullptr;
  }
};

Report::Report(std::string stage, std::string problem, std::string device)
    : rows_(new Rows{std::move(stage), std::move(problem), std::move(device), {}}) {}

Report::~Report() = default;

void Report::add(Measurement measurement) { rows_->rows.push_back(std::move(measurement)); }

const std::vector<Measurement>& Report::measurements() const { return rows_->rows; }

int Report::print(bool csv) const {
  std::fputs((csv ? csv_text() : table_text()).c_str(), stdout);
  int exit_code = kExitOk;
  for (const auto& row : rows_->rows) {
    if (row.check.ok) continue;
    // The table shows every check; CSV has room for a verdict only, so say why on stderr.
    if (csv) std::fprintf(stderr, "%s: %s\n", row.variant.c_str(), row.check.summary().c_str());
    exit_code = kExitFailure;
  }
  return exit_code;
}

std::string Report::table_text() const {
  std::string out;
  append(out, "%s: %s\non %s\n%s\n", rows_->stage.c_str(), rows_->problem.c_str(),
         rows_->device.c_str(), l2_line(rows_->rows).c_str());
  // The variant column is as wide as its longest entry (Part 3 names tilings in full).
  int width = 48;
  for (const auto& row : rows_->rows) {
    width = std::max(width, static_cast<int>(row.variant.size()) + 11);  // + " [ceiling]"
  }
  append(out, "%-*s %11s %11s %17s %8s %9s  %s\n", width, "variant", "median ms", "min ms", "rate",
         "vs base", "% ceiling", "check");
  for (std::size_t i = 0; i < rows_->rows.size(); ++i) {
    const Measurement& row = rows_->rows[i];
    const Measurement* base = rows_->baseline_for(i);
    const Measurement* top = rows_->ceiling(row.unit);
    char vs_base[16] = "";
    char pct[16] = "";
    // A row compared with itself would always read 1.00x: say nothing instead.
    if (base && base != &row && row.role != Role::transfer) {
      std::snprintf(vs_base, sizeof vs_base, "%.2fx",
                    base->timing.median_ms / row.timing.median_ms);
    }
    if (top && row.role != Role::transfer) {
      std::snprintf(pct, sizeof pct, "%.1f%%", 100.0 * row.rate() / top->rate());
    }
    std::string variant = row.variant;
    if (row.role == Role::baseline) variant += " [base]";
    if (row.role == Role::ceiling) variant += " [ceiling]";
    char rate[32];
    std::snprintf(rate, sizeof rate, "%.1f %s", row.rate(), row.unit.c_str());
    append(out, "%-*s %11.4f %11.4f %17s %8s %9s  %s\n", width, variant.c_str(),
           row.timing.median_ms, row.timing.min_ms, rate, vs_base, pct,
           row.check.checked == 0 ? "-" : (row.check.ok ? "ok" : "FAILED"));
  }
  out += "\n";
  for (const auto& row : rows_->rows) {
    if (row.check.checked > 0) {
      append(out, "  %-*s %s\n", width - 2, row.variant.c_str(), row.check.summary().c_str());
    }
  }
  const Timing timing = rows_->rows.empty() ? Timing{} : rows_->rows.front().timing;
  append(out, "\nTimes are the median and minimum of %d timed run%s%s.\n", timing.runs,
         timing.runs == 1 ? "" : "s", timing.warmups > 0 ? " after warm-up" : "");
  return out;
}

std::string Report::csv_text() const {
  std::string out =
      "stage,variant,role,problem,device,median_ms,min_ms,runs,rate,unit,pct_of_ceiling,"
      "verified,l2\n";
  for (const auto& row : rows_->rows) {
    const Measurement* top = rows_->ceiling(row.unit);
    // Empty, not 0.00, where the row has no ceiling to compare with.
    char pct[32] = "";
    if (top && row.role != Role::transfer) {
      std::snprintf(pct, sizeof pct, "%.2f", 100.0 * row.rate() / top->rate());
    }
    append(out, "%s,%s,%s,%s,%s,%.6f,%.6f,%d,%.3f,%s,%s,%s,%s\n", rows_->stage.c_str(),
           csv_field(row.variant).c_str(), role_name(row.role), csv_field(rows_->problem).c_str(),
           csv_field(rows_->device).c_str(), row.timing.median_ms, row.timing.min_ms,
           row.timing.runs, row.rate(), row.unit.c_str(), pct,
           row.check.checked == 0 ? "n/a" : (row.check.ok ? "yes" : "no"), row.l2.c_str());
  }
  return out;
}

std::string cpu_description() {
  std::string model = "unknown CPU";
  std::ifstream cpuinfo("/proc/cpuinfo");
  for (std::string line; std::getline(cpuinfo, line);) {
    if (line.rfind("model name", 0) == 0) {
      model = line.substr(line.find(':') + 2);
      break;
    }
  }
  return model + ", 1 thread, " LADDER_CXX_FLAGS;
}

}  // namespace ladder
