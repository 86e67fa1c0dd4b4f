#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <utility>

#include "common/errors.hpp"
#include "common/harness/program.hpp"
#include "common/matrix.hpp"
#include "common/matrix_owners.hpp"

namespace ladder {
namespace {

// One line of the option list: the name (and <value>) padded to a column, then the help.
std::string option_line(const std::string& left, const std::string& help) {
  std::string line = "  " + left;
  if (line.size() < 24) line.resize(24, ' ');
  return line + " " + help;
}

long long parse_integer(const std::string& name, const std::string& text) {
  const char* begin = text.c_str();
  char* end = nullptr;
  errno = 0;
  const long long value = std::strtoll(begin, &end, 10);
  if (text.empty() || *end != '\0') {
    throw UsageError(name + " needs a whole number, got '" + text + "'");
  }
  // A whole number beyond long long: strtoll says so with ERANGE.
  if (errno == ERANGE) throw UsageError(name + " is too large, got " + text);
  return value;
}

}  // namespace

struct Cli::Options {
  struct Option {
    std::string name;
    std::string help;
    std::string default_text;
    bool takes_value;
    std::function<void(const std::string&)> accept;
  };
  std::string program;
  std::string summary;
  std::vector<Option> list;
  std::vector<std::function<void()>> checks;

  const Option* find(const std::string& name) const {
    for (const auto& option : list) {
      if (option.name == name) return &option;
    }
    return nullptr;
  }
};

Cli::Cli(std::string program, std::string summary)
    : options_(new Options{std::move(program), std::move(summary), {}, {}}) {}

Cli::~Cli() = default;

void Cli::add_int(const std::string& name, int* value, const std::string& help, int min, int max) {
  options_->list.push_back(
      {name, help, std::to_string(*value), true, [name, value, min, max](const std::string& text) {
         const long long parsed = parse_integer(name, text);
         if (parsed < min) {
           throw UsageError(name + " must be at least " + std::to_string(min) + ", got " + text);
         }
         if (parsed > max) {
           throw UsageError(name + " must be at most " + std::to_string(max) + ", got " + text);
         }
         *value = static_cast<int>(parsed);
       }});
}

void Cli::add_seed(const std::string& name, std::uint64_t* value, const std::string& help) {
  options_->list.push_back(
      {name, help, std::to_string(*value), true, [name, value](const std::string& text) {
         if (!text.empty() && text[0] == '-') {
           throw UsageError(name + " must not be negative, got " + text);
         }
         char* end = nullptr;
         errno = 0;
         const unsigned long long parsed = std::strtoull(text.c_str(), &end, 10);
         if (text.empty() || *end != '\0') {
           throw UsageError(name + " needs a whole number, got '" + text + "'");
         }
         if (errno == ERANGE) {
           throw UsageError(name + " is too large, got " + text);
         }
         *value = parsed;
       }});
}

void Cli::add_choice(const std::string& name, std::string* value, std::vector<std::string> choices,
                     const std::string& help) {
  std::string listed;
  for (const auto& choice : choices) listed += (listed.empty() ? "" : "|") + choice;
  // A long list (stage 12's tilings) would bury the help: a wrong value prints it instead.
  const std::string shown =
      listed.size() <= 80 ? listed
                          : std::to_string(choices.size()) + " choices; a wrong value lists them";
  options_->list.push_back({name, help + " (" + shown + ")", *value, true,
                            [name, value, choices, listed](const std::string& text) {
                              for (const auto& choice : choices) {
                                if (text == choice) {
                                  *value = text;
                                  return;
                                }
                              }
                              throw UsageError(name + " must be one of " + listed + ", got '" +
                                               text + "'");
                            }});
}

void Cli::add_flag(const std::string& name, bool* value, const std::string& help) {
  options_->list.push_back({name, help, "", false, [value](const std::string&) { *value = true; }});
}

void Cli::add_check(std::function<void()> check) { options_->checks.push_back(std::move(check)); }

bool Cli::parse(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg == "--help" || arg == "-h") {
      std::fputs(usage().c_str(), stdout);
      return false;
    }
    std::string value;
    bool has_inline_value = false;
    if (const auto eq = arg.find('='); eq != std::string::npos) {
      value = arg.substr(eq + 1);
      arg.resize(eq);
      has_inline_value = true;
    }
    const Options::Option* option = options_->find(arg);
    if (option == nullptr) throw UsageError("unknown option '" + arg + "'");
    if (option->takes_value && !has_inline_value) {
      if (i + 1 >= argc) throw UsageError(arg + " needs a value");
      value = argv[++i];
    } else if (!option->takes_value && has_inline_value) {
      throw UsageError(arg + " takes no value");
    }
    option->accept(value);
  }
  for (const auto& check : options_->checks) check();
  return true;
}

std::string Cli::usage() const {
  std::ostringstream out;
  out << options_->program << ": " << options_->summary << "\n\nUsage: " << options_->program
      << " [options]\n\nOptions:\n";
  for (const auto& option : options_->list) {
    out << option_line(option.name + (option.takes_value ? " <value>" : ""), option.help);
    if (!option.default_text.empty()) out << " [default: " << option.default_text << "]";
    out << "\n";
  }
  out << option_line("--help", "print this help")
      << "\n\n"
         "Every matrix, with the "
      << kEdgeRows
      << " rows past it that edge tiles address, "
         "must hold fewer than 2^31 elements (8 GiB of floats), so that kernels can index it "
         "with int; and it must fit in this machine's memory.\n"
         "Exit codes: 0 verified, 1 wrong result or runtime error, 2 bad usage, "
         "77 no usable CUDA device (1 where LADDER_REQUIRE_GPU=1) or a GPU older than the stage "
         "needs (77 always).\n";
  return out.str();
}

void add_run_options(Cli& cli, RunOptions& options) {
  cli.add_int("--reps", &options.repeats.timed, "timed runs; the median is reported");
  cli.add_int("--warmup", &options.repeats.warmup, "untimed runs before timing", 0);
  cli.add_seed("--seed", &options.seed, "seed of the random inputs");
  cli.add_flag("--csv", &options.csv, "print one CSV row per measurement instead of the table");
  if (!options.l2.empty()) {
    cli.add_choice("--l2", &options.l2, {"flushed", "warm"},
                   "the L2 cache before each timed run: emptied, or as the last run left it");
  }
}

RunOptions gpu_run_defaults() {
  RunOptions options;
  options.repeats = Repeats{3, 20};
  options.l2 = "flushed";
  return options;
}

RunOptions cpu_run_defaults() {
  RunOptions options;
  options.repeats = Repeats{1, 5};
  return options;
}

std::string GemmShape::describe() const {
  return "A " + std::to_string(m) + "x" + std::to_string(k) + " * B " + std::to_string(k) + "x" +
         std::to_string(n);
}

void add_gemm_shape(Cli& cli, GemmShape& shape) {
  cli.add_int("--m", &shape.m, "rows of A and C");
  cli.add_int("--n", &shape.n, "columns of B and C");
  cli.add_int("--k", &shape.k, "columns of A, rows of B");
  cli.add_check([&shape] {
    check_matrix_shape(shape.m, shape.k, shape.k);
    check_matrix_shape(shape.k, shape.n, shape.n);
    check_matrix_shape(shape.m, shape.n, shape.n);
  });
}

void add_config_choice(Cli& cli, std::string* chosen, const std::vector<std::string>& configs,
                       const std::string& help) {
  *chosen = configs.front();
  std::vector<std::string> choices = configs;
  choices.push_back("all");
  cli.add_choice("--config", chosen, std::move(choices), help);
}

}  // namespace ladder
