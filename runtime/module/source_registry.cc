//===- source_registry.cc - Source tables of the loaded modules -----------===//

#include "module/source_registry.h"

#include <mutex>

namespace kiln {

SourceRegistry& SourceRegistry::Global() {
  // Never destroyed: a profiler may ask for a text after main returns.
  static SourceRegistry* registry = new SourceRegistry();
  return *registry;
}

void SourceRegistry::Add(Entry* entry) {
  std::lock_guard<std::mutex> lock(mutex_);
  entry->previous = nullptr;
  entry->next = head_;
  if (head_) head_->previous = entry;
  head_ = entry;
}

void SourceRegistry::Remove(Entry* entry) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (entry->previous) entry->previous->next = entry->next;
  if (entry->next) entry->next->previous = entry->previous;
  if (head_ == entry) head_ = entry->next;
  entry->previous = entry->next = nullptr;
}

}  // namespace kiln
